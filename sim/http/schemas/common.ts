import { Type, type Static, type TSchema } from './json-schema.ts';

/** Shapes shared by every resource (spec 2.1, 2.16). */
/** Any case on the way in; sim/http/canonical-ids.ts hands handlers the lowercase form of every value validated as one. */
export const Uuid = Type.String({ format: 'uuid' });
export const Amount = Type.String({ pattern: '^(0|[1-9][0-9]*)$' });
/**
 * An amount a request sends, `/sim` included: at most 78 digits, the bound spec
 * 4.11 gives its amounts (a 256-bit integer has 78), so no request can store
 * an amount no chain could hold, or a 200,000-digit one.
 */
export const AmountInput = Type.String({ pattern: '^(0|[1-9][0-9]{0,77})$' });
export const DateTime = Type.String({ format: 'date-time' });
export const ContractHash = Type.String({ pattern: '^[a-f0-9]{64}$' });
export const IdempotencyKey = Type.String({ minLength: 8, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' });
/**
 * `schema` or null, as one schema with `type: [schema's type, 'null']` (JSON Schema
 * 2020-12, OpenAPI 3.1) rather than an `anyOf`: the response serializer then tells
 * null from a value by its JavaScript type instead of validating each branch.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') throw new Error('Nullable: the schema must have a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false, $id: 'ErrorBody' },
);

/** Spec 7, 8: every 429 the simulator sends says when to try again (sim/domain/errors.ts gives each one its seconds). */
const RETRY_AFTER = { 'Retry-After': { type: 'integer', minimum: 1, description: 'Whole seconds to wait before trying again.' } };

/** The error statuses a /v1 route may answer (spec part 4 preamble), all with the error body. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, s === 429 ? Type.Ref('ErrorBody', { headers: RETRY_AFTER }) : Type.Ref('ErrorBody')]));
}

export const STANDARD_ERRORS = [400, 401, 403, 404, 409, 429, 503];

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const NoQuery = Type.Object({}, { additionalProperties: false });
