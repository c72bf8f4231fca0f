/**
 * Destinations, webhook deliveries and their signing (spec 6). The folder's
 * public face: only what code outside it imports (the domain's other files
 * take the stored shapes, records.ts, as types).
 */
// signedHeaders: the fast-forward bench signs each delivery again, as its attempt was, for its baseline.
export { deliveryView, prepareAttempt, queueDeliveries, recordAttempt, signedHeaders } from './deliveries.ts';
// The soak bench makes, verifies and subscribes its destination without HTTP.
export { createDestination, subscribe, verifyDestination } from './destinations.ts';
export { createDeliveries, type DeliveriesService } from './service.ts';
// signPayload and signatureMatches: tests hold the signer to src/webhook's verifier, and a sent signature to the secret shown.
export { derivedSecret, sealedToken, signatureMatches, signPayload } from './signing.ts';
// addressPolicy and addressRefusal: the address policy test judges addresses with them.
export { addressPolicy, addressRefusal } from './webhook-address.ts';
export { webhookUrlProblem } from './webhook-url.ts';
