import type { FastifyInstance } from 'fastify';

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
    if (body.length === 0) done(null, undefined);
    else parseJson(request, body as string, done);
  });
}
