import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { OPTIONAL_KEY } from '../schemas/json-schema.ts';

type ValidatorFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;

// ajv is loaded with the first schema compiled, not with the server: a synchronous require,
// because Fastify calls a validator synchronously.
const requireLazily = createRequire(import.meta.url);

/**
 * Strict validation (architecture convention 2): unknown properties are
 * refused, never stripped; JSON bodies are never coerced (a number is not an
 * amount), while query strings and path parameters, which arrive as text, are.
 * The route schemas are module constants: test/foundation/route-schemas.test.ts
 * checks each against JSON Schema's meta-schema once, so a process does not
 * (validateSchema: false). Measured 2026-11-28 (--cpu-prof of all shipped
 * scenarios in one `understudy scenario`): checking them took 78 ms of the
 * process's 3.05 s, compiling the meta-schema first.
 */
function makeAjv(coerce: boolean) {
  const Ajv = requireLazily('ajv') as typeof import('ajv');
  const addFormats = requireLazily('ajv-formats') as typeof import('ajv-formats');
  const ajv = new Ajv.default({ removeAdditional: false, coerceTypes: coerce, useDefaults: true, allErrors: false, strict: false, discriminator: true, validateSchema: false });
  addFormats.default(ajv);
  return ajv;
}

/**
 * One pair of ajv instances for the process, shared by every simulator it builds:
 * ajv keeps what it compiled by schema object, and the route schemas are
 * module constants, so a second simulator (each scenario, each library start)
 * reuses the validators the first compiled instead of compiling ajv's meta
 * schema and every schema again. Measured 2026-11-28: all shipped scenarios in
 * one process (npm run bench -- scenarios) took 6.0 s of CPU with a pair per
 * simulator, 4.8 s with this one.
 */
let bodyAjv: ReturnType<typeof makeAjv> | undefined;
let textAjv: ReturnType<typeof makeAjv> | undefined;

/**
 * The validator compiler, handed to Fastify's constructor (schemaController.compilersFactory)
 * so that Fastify never loads its own ajv setup, which this one replaces.
 */
export function lazyValidators(): ValidatorFactory {
  const compile = (schema: object, httpPart: string | undefined): ValidateFunction =>
    httpPart === 'body' ? (bodyAjv ??= makeAjv(false)).compile(schema) : (textAjv ??= makeAjv(true)).compile(schema);
  const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
    // A body schema wrapped in Type.Optional (e.g. POST /sim/reset's { seed? }) also accepts a
    // request without a body, which Fastify hands to the validator as null.
    const optional = httpPart === 'body' && (schema as Record<string, unknown>)[OPTIONAL_KEY] === true;
    const validator = lazyValidator(() => compile(schema as object, httpPart), httpPart === 'body', optional);
    return httpPart === 'body' ? validator : decimalIntegersFirst(validator, integerNames(schema as object));
  };
  return () => compiler as never;
}

/**
 * A validator that compiles its schema on its first call instead of at ready(), so
 * start-up does not pay for the routes a session never calls. Fastify reads
 * `.errors` from the function it called, so each call copies the compiled
 * validator's errors onto it.
 */
function lazyValidator(compile: () => ValidateFunction, body: boolean, optional: boolean) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown, context?: Parameters<ValidateFunction>[1]): boolean => {
    if (body && (data === null || data === undefined)) {
      // No body, or an empty one (json-body.ts): fine where the body is optional, else named.
      validate.errors = optional ? null : [{ keyword: 'bodyRequired', instancePath: '', schemaPath: '#', params: {} }];
      return optional;
    }
    compiled ??= compile();
    const valid = compiled(data, context) as boolean;
    validate.errors = compiled.errors ?? null;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  // Fastify hands the request as parent only to functions marked as ajv's (by `schemaEnv`), which
  // lets ajv replace a coerced root value; the mark keeps that for the compiled function inside.
  validate.schemaEnv = true;
  return validate;
}

/** The integer properties of a query or path schema (both are flat objects). */
function integerNames(schema: object): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.keys(properties).filter((name) => properties[name].type === 'integer');
}

const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * Text coercion would read `1e1`, `0x10`, ` 10` or `010` as an integer; a parameter
 * typed integer must be written as a plain decimal integer, so those are refused by
 * name before coercion. (Spec 4.1: parameters are strict.)
 */
function decimalIntegersFirst(validate: ReturnType<typeof lazyValidator>, names: string[]) {
  if (names.length === 0) return validate;
  const checked = (data: unknown, context?: Parameters<ValidateFunction>[1]): boolean => {
    const values = data as Record<string, unknown> | null | undefined;
    for (const name of names) {
      const value = values?.[name];
      if (typeof value === 'string' && !DECIMAL_INTEGER.test(value)) {
        checked.errors = [{ keyword: 'decimalInteger', instancePath: `/${name}`, schemaPath: '#', params: {} }];
        return false;
      }
    }
    const valid = validate(data, context);
    checked.errors = validate.errors;
    return valid;
  };
  checked.errors = null as ValidateFunction['errors'];
  checked.schemaEnv = true;
  return checked;
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** One clear sentence naming the field, from the first validation issue. */
export function describeValidation(issues: AjvIssue[], context: string): string {
  const issue = issues[0];
  const part = PART_NAMES[context] ?? context;
  const path = issue.instancePath.split('/').filter(Boolean).join('.');
  const field = (name: string) => (path ? `${path}.${name}` : name);
  switch (issue.keyword) {
    case 'decimalInteger':
      return `${part}: '${path}' must be an integer written in plain decimal digits.`;
    case 'bodyRequired':
      return 'body: this route needs a JSON body; the request had none (or an empty one).';
    case 'additionalProperties': {
      const name = String(issue.params.additionalProperty);
      if (context === 'querystring') return `Unknown query parameter '${name}'.`;
      return `${part}: unknown property '${field(name)}' is not allowed.`;
    }
    case 'required':
      return `${part}: '${field(String(issue.params.missingProperty))}' is required.`;
    case 'enum':
      return `${part}: '${path}' must be one of ${(issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'const':
      return `${part}: '${path}' must be ${JSON.stringify(issue.params.allowedValue)}.`;
    case 'discriminator':
      return `${part}: '${path ? `${path}.` : ''}${String(issue.params.tag ?? 'type')}' ${issue.params.error === 'mapping' ? 'is not one of the known types' : 'is required'}.`;
    case 'type':
      return `${part}: '${path || part}' must be ${article(String(issue.params.type))}.`;
    case 'pattern':
      return `${part}: '${path}' does not match the pattern ${issue.params.pattern}.`;
    case 'format':
      return `${part}: '${path}' must be a valid ${issue.params.format}.`;
    case 'maxLength':
    case 'minLength':
    case 'maximum':
    case 'minimum':
    case 'maxItems':
    case 'minItems':
      return `${part}: '${path}' ${issue.message}.`;
    default:
      return `${part}: '${path || part}' ${issue.message ?? 'is invalid'}.`;
  }
}

function article(type: string): string {
  if (type === 'object' || type === 'array' || type === 'integer') return `an ${type}`;
  return `a ${type}`;
}
