import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { safeParse as parseContentType } from 'fast-content-type-parse';
import { errors, ServiceError } from '../../domain/errors.ts';

/**
 * Many clients send `content-type: application/json` on every POST, with or
 * without a body. An empty body under that header is taken as no body, as if
 * the header were absent: a bodyless route (cancel, stop, ack, key revoke, ...)
 * then answers as it does to `{}`, and a route that needs a body says so by
 * name (validation.ts) instead of "not valid JSON". Any other body is parsed
 * by Fastify's own JSON parser, with its prototype-poisoning protection.
 * JSON is the only body type (spec 2.1): Fastify's built-in text/plain parser
 * is removed, so a text/plain body gets the declared 415 like any other type.
 */
export function installJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    const charset = charsetRefusal(request);
    if (charset) done(charset, undefined);
    else parseJson(request, body as string, done);
  });
  app.addHook('onRoute', refuseFieldsWhereNoBodyIsTaken);
}

/**
 * A POST that declares no body (cancel, stop, ack and the bodyless /sim
 * actions) takes none, an empty one or `{}` (generated clients send it); a body
 * with fields, or one that is not an object, is refused naming it, rather than
 * ignored as if the caller had meant nothing by it.
 */
function refuseFieldsWhereNoBodyIsTaken(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.includes('POST') || (route.schema as { body?: unknown } | undefined)?.body !== undefined) return;
  const earlier = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
  route.preValidation = [...earlier, refuseBody as never];
}

function refuseBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const body = request.body;
  if (body === undefined) return done();
  const route = `POST ${request.routeOptions.url}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return done(errors.invalidInput(`body: ${route} takes no body (send none, or {}); got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}.`));
  }
  const fields = Object.keys(body);
  if (fields.length === 0) return done();
  done(errors.invalidInput(`body.${fields[0]}: ${route} takes no body (send none, or {}); got ${fields.length === 1 ? 'this field' : `${fields.length} fields: ${fields.join(', ')}`}.`));
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
