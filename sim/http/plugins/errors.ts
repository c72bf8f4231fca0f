import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, ServiceError } from '../../domain/errors.ts';
import { redactCredentials } from '../../domain/keys/index.ts';
import { SnapshotShapeError, StoreBusyError, StoreWriteError } from '../../store/file-store.ts';
import { describeValidation } from './validation.ts';
import { unmatchedScope } from './route-scope.ts';

/**
 * Spec 7: a message never contains a credential, not even one the request put
 * where a message echoes a name (an unknown query parameter or property): API
 * keys (svc_test_/svc_live_) and webhook signing secrets (whsec_).
 */

/** Turns every failure into the spec's error body (part 7); nothing else ever leaves. */
export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).send({ error: { code: error.code, message: redactCredentials(error.message) } });
}

export function toServiceError(error: FastifyError & { validation?: unknown[]; validationContext?: string }): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof SnapshotShapeError) return errors.invalidInput(`body: the snapshot's store is malformed: ${error.problem}.`);
  if (error instanceof StoreWriteError) return errors.notSaved();
  if (error instanceof StoreBusyError) return errors.unavailable('A snapshot import is replacing the whole state: nothing was changed. Try again when it has ended.');
  if (error.validation) return errors.invalidInput(describeValidation(error.validation as never, error.validationContext ?? 'body'));
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(413, 'invalid_input', 'The request body exceeds the limit of 262144 bytes.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.invalidInput('body: the request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError(415, 'invalid_input', 'content-type: requests with a body must be sent as application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.invalidInput('content-length: the header does not match the body.');
    case 'FST_ERR_BAD_URL':
      return errors.invalidInput('path: the URL is not validly percent-encoded.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errors.invalidInput('path: a path parameter is longer than 100 characters.');
    default:
      return errors.internal();
  }
}

/**
 * Fastify's `frameworkErrors` option (set where the instance is created): a URL
 * that is not validly percent-encoded or a path parameter over maxParamLength is
 * answered before routing, by default with Fastify's own body echoing the path.
 * This gives it the spec's error body instead.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, toServiceError(error));
}

/** `controlToken`: when set, an unknown /sim path answers 401 without it, as a /sim route would, so a caller without the token learns nothing. */
export function installErrorHandling(app: FastifyInstance, controlToken: string | null = null): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const serviceError = toServiceError(error);
    // Only unexpected failures are logged, and without request data (which may hold credentials).
    if (serviceError.status === 500) request.log.error({ reqId: request.id, err: { message: error.message, stack: error.stack } }, 'unexpected failure');
    return sendError(reply, serviceError);
  });
  app.setNotFoundHandler((request, reply) => {
    const scope = unmatchedScope(request);
    if (scope === 'sim' && controlToken !== null && request.headers['x-understudy-control-token'] !== controlToken) return sendError(reply, errors.unauthenticatedControl());
    // Spec 5.5: a route not listed in part 4 refuses any key with 401 (a /v1 path as the router reads it).
    if (scope === 'v1' && /^bearer\s/i.test(request.headers.authorization ?? '')) return sendError(reply, errors.keyNotAccepted());
    return sendError(reply, errors.notFound('No route matches this method and path.'));
  });
}
