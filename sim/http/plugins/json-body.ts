import type { FastifyInstance, FastifyRequest } from 'fastify';
import { safeParse as parseContentType } from 'fast-content-type-parse';
import { ServiceError } from '../../domain/errors.ts';

/**
 * Many clients send `content-type: application/json` on every POST, with or
 * without a body. An empty body under that header is taken as no body, as if
 * the header were absent: a bodyless route (cancel, stop, ack, key revoke, ...)
 * then answers as it does to `{}`, and a route that needs a body says so by
 * name (validation.ts) instead of "not valid JSON". Any other body is parsed
 * by Fastify's own JSON parser, with its prototype-poisoning protection.
 */
export function installJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    const charset = charsetRefusal(request);
    if (charset) done(charset, undefined);
    else parseJson(request, body as string, done);
  });
}

/**
 * JSON is UTF-8 (RFC 8259, 8.1): a body declared in another charset (utf-16,
 * latin1) would be read as something it is not, so it is refused (415) naming
 * the header. No charset, or utf-8 in any spelling, is UTF-8.
 */
export function charsetRefusal(request: FastifyRequest): ServiceError | null {
  const charset = parseContentType(request.headers['content-type'] ?? '').parameters.charset?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return null;
  return new ServiceError(415, 'invalid_input', `content-type: the charset '${charset.slice(0, 40)}' is not accepted; send the body as UTF-8 (application/json; charset=utf-8).`);
}
