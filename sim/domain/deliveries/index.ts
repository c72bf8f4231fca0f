/** Destinations, webhook deliveries and their signing (spec 6). The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './deliveries.ts';
export * from './destinations.ts';
export * from './records.ts';
export * from './service.ts';
export * from './signing.ts';
export * from './webhook-address.ts';
export * from './webhook-url.ts';
