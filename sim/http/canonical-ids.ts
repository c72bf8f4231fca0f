import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Spec 2.1: ids are UUIDs, and a UUID is the same whatever the case of its hex digits
 * (RFC 4122 3: "input is case-insensitive"). The store keys every row by the lowercase
 * form, so every request value that a route's schema validates as a UUID (format
 * 'uuid': path ids, body ids, query ids, of /v1 and /sim alike) is rewritten to that
 * form after validation, before the handler runs. Handlers and the domain then see
 * only canonical ids, and answers carry them. Idempotency keys and contract hashes are
 * not UUIDs and are left as sent.
 */

type Canonicalise = (value: unknown) => unknown;

/** ajv-formats' 'uuid' also admits an RFC 4122 URN (`urn:uuid:` in any case); its id is the UUID after it. */
const URN_PREFIX = /^urn:uuid:/i;

export function canonicalUuid(text: string): string {
  return text.replace(URN_PREFIX, '').toLowerCase();
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The function that rewrites the UUIDs of a value the schema accepted, or null when the
 * schema holds none. It follows properties, array items and union branches; request
 * schemas use no $ref. A union's branches are all applied: no request schema has two
 * object branches that use one property name for a UUID in one and for other text in
 * the other.
 */
export function uuidCanonicaliser(schema: unknown): Canonicalise | null {
  if (!isRecord(schema)) return null;
  const steps: Canonicalise[] = [];
  if (schema.format === 'uuid') steps.push((value) => (typeof value === 'string' ? canonicalUuid(value) : value));
  if (isRecord(schema.properties)) {
    const fields = Object.entries(schema.properties).flatMap(([name, property]) => {
      const canonicalise = uuidCanonicaliser(property);
      return canonicalise ? [[name, canonicalise] as const] : [];
    });
    if (fields.length > 0) {
      steps.push((value) => {
        if (isRecord(value)) for (const [name, canonicalise] of fields) if (Object.hasOwn(value, name)) value[name] = canonicalise(value[name]);
        return value;
      });
    }
  }
  const items = uuidCanonicaliser(schema.items);
  if (items) {
    steps.push((value) => {
      if (Array.isArray(value)) for (let i = 0; i < value.length; i += 1) value[i] = items(value[i]);
      return value;
    });
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const canonicalise = uuidCanonicaliser(branch);
      if (canonicalise) steps.push(canonicalise);
    }
  }
  if (steps.length === 0) return null;
  if (steps.length === 1) return steps[0];
  return (value) => steps.reduce((current, step) => step(current), value);
}

const REQUEST_PARTS = [
  ['params', 'params'],
  ['querystring', 'query'],
  ['body', 'body'],
] as const;

/**
 * Gives every route whose request schema holds a UUID a first preHandler (it runs after
 * validation) that canonicalises them. Routes without one pay nothing.
 */
export function installCanonicalIds(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    const parts = REQUEST_PARTS.flatMap(([schemaPart, requestPart]) => {
      const canonicalise = uuidCanonicaliser(schema[schemaPart]);
      return canonicalise ? [[requestPart, canonicalise] as const] : [];
    });
    if (parts.length === 0) return;
    const preHandler = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const target = request as unknown as Record<string, unknown>;
      for (const [part, canonicalise] of parts) target[part] = canonicalise(target[part]);
      done();
    };
    // A new array: Fastify derives the HEAD route from the GET route's options, which must not gain this hook twice.
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [preHandler, ...own] as never;
  });
}
