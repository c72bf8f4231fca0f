/**
 * A small JSON Schema builder, in place of the typebox package: the simulator only
 * ever needed plain schema objects (Fastify validates and serializes them, and
 * @fastify/swagger publishes them), and loading typebox's few hundred modules was
 * most of the server's start-up time.
 *
 * Each builder emits the same enumerable keys, in the same order, that typebox 1.x
 * did, so the published OpenAPI document and the compiled validators and
 * serializers are unchanged. Types are tracked for the checker only, through a
 * phantom property that never exists at run time.
 */

declare const StaticType: unique symbol;
declare const OptionalMark: unique symbol;

/** A JSON Schema whose accepted values have the TypeScript type T. */
export interface TSchema<T = unknown> {
  readonly [StaticType]: T;
  readonly [keyword: string]: unknown;
}

/** A property schema that an object may omit. */
export type TOptional<S extends TSchema> = S & { readonly [OptionalMark]: true };

/** The TypeScript type of the values a schema accepts. */
export type Static<S> = S extends TSchema<infer T> ? T : never;

type Properties = Record<string, TSchema>;
type OptionalKeys<P extends Properties> = { [K in keyof P]: P[K] extends { readonly [OptionalMark]: true } ? K : never }[keyof P];
type Flatten<T> = { [K in keyof T]: T[K] } & {};
type ObjectStatic<P extends Properties> = Flatten<
  { [K in Exclude<keyof P, OptionalKeys<P>>]: Static<P[K]> } & { [K in OptionalKeys<P>]?: Static<P[K]> }
>;

/** Keywords a builder's caller may add (constraints, annotations, $id, ...). */
export type SchemaOptions = Record<string, unknown>;

type LiteralValue = string | number | boolean;

/**
 * Read by the validator compiler (sim/http/plugins/validation.ts): an optional request
 * body may be absent altogether. Not enumerable, so no validator, serializer or
 * OpenAPI document ever sees it.
 */
export const OPTIONAL_KEY = '~optional';

const schema = <T>(keywords: object, options?: SchemaOptions) => ({ ...keywords, ...options }) as unknown as TSchema<T>;

function Optional<S extends TSchema>(property: S): TOptional<S> {
  const copy = { ...property };
  Object.defineProperty(copy, OPTIONAL_KEY, { value: true, enumerable: false, writable: true, configurable: true });
  return copy as TOptional<S>;
}

const isOptional = (property: TSchema) => (property as Record<string, unknown>)[OPTIONAL_KEY] === true;

function _Object<P extends Properties>(properties: P, options?: SchemaOptions): TSchema<ObjectStatic<P>> {
  const required = Object.keys(properties).filter((key) => !isOptional(properties[key]));
  // An object with no required property has no `required` keyword at all, not an empty one.
  return schema({ type: 'object', ...(required.length > 0 ? { required } : {}), properties }, options);
}

function _Array<S extends TSchema>(items: S, options?: SchemaOptions): TSchema<Static<S>[]> {
  return schema({ type: 'array', items }, options);
}

function Literal<const V extends LiteralValue>(value: V, options?: SchemaOptions): TSchema<V> {
  return schema({ type: typeof value, const: value }, options);
}

function Union<const S extends readonly TSchema[]>(anyOf: S, options?: SchemaOptions): TSchema<Static<S[number]>> {
  return schema({ anyOf }, options);
}

/** Only string keys: an object whose every property matches `value`. */
function _Record<V extends TSchema>(key: TSchema<string>, value: V, options?: SchemaOptions): TSchema<Record<string, Static<V>>> {
  const keywords = Object.keys(key);
  if (key.type !== 'string' || keywords.length !== 1) throw new Error('Type.Record: only a plain Type.String() key is supported');
  return schema({ type: 'object', patternProperties: { '^.*$': value } }, options);
}

/** A hand-written schema, taken as is, with the type the caller declares. */
function Unsafe<T = unknown>(keywords: object): TSchema<T> {
  return { ...keywords } as unknown as TSchema<T>;
}

export const Type = {
  String: (options?: SchemaOptions) => schema<string>({ type: 'string' }, options),
  Integer: (options?: SchemaOptions) => schema<number>({ type: 'integer' }, options),
  Number: (options?: SchemaOptions) => schema<number>({ type: 'number' }, options),
  Boolean: (options?: SchemaOptions) => schema<boolean>({ type: 'boolean' }, options),
  Null: (options?: SchemaOptions) => schema<null>({ type: 'null' }, options),
  Unknown: (options?: SchemaOptions) => schema<unknown>({}, options),
  Ref: <T = unknown>($ref: string, options?: SchemaOptions) => schema<T>({ $ref }, options),
  Object: _Object,
  Array: _Array,
  Optional,
  Literal,
  Union,
  Record: _Record,
  Unsafe,
};
