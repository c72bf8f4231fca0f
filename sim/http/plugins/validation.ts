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
 */
function makeAjv(coerce: boolean) {
  const Ajv = requireLazily('ajv') as typeof import('ajv');
  const addFormats = requireLazily('ajv-formats') as typeof import('ajv-formats');
  const ajv = new Ajv.default({ removeAdditional: false, coerceTypes: coerce, useDefaults: true, allErrors: false, strict: false, discriminator: true });
  addFormats.default(ajv);
  return ajv;
}

/**
 * The validator compiler, handed to Fastify's constructor (schemaController.compilersFactory)
 * so that Fastify never loads its own ajv setup, which this one replaces.
 */
export function lazyValidators(): ValidatorFactory {
  let bodyAjv: ReturnType<typeof makeAjv> | undefined;
  let textAjv: ReturnType<typeof makeAjv> | undefined;
  const compile = (schema: object, httpPart: string | undefined): ValidateFunction =>
    httpPart === 'body' ? (bodyAjv ??= makeAjv(false)).compile(schema) : (textAjv ??= makeAjv(true)).compile(schema);
  const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
    // A body schema wrapped in Type.Optional (e.g. POST /sim/reset's { seed? }) also accepts a
    // request without a body, which Fastify hands to the validator as null.
    const optional = httpPart === 'body' && (schema as Record<string, unknown>)[OPTIONAL_KEY] === true;
    return lazyValidator(() => compile(schema as object, httpPart), optional);
  };
  return () => compiler as never;
}

/**
 * A validator that compiles its schema on its first call instead of at ready(), so
 * start-up does not pay for the routes a session never calls. Fastify reads
 * `.errors` from the function it called, so each call copies the compiled
 * validator's errors onto it.
 */
function lazyValidator(compile: () => ValidateFunction, optional: boolean) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown, context?: Parameters<ValidateFunction>[1]): boolean => {
    if (optional && (data === null || data === undefined)) {
      validate.errors = null;
      return true;
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
