import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';

/**
 * Strict validation (architecture convention 2): unknown properties are
 * refused, never stripped; JSON bodies are never coerced (a number is not an
 * amount), while query strings and path parameters, which arrive as text, are.
 */
function makeAjv(coerce: boolean) {
  const ajv = new Ajv.default({ removeAdditional: false, coerceTypes: coerce, useDefaults: true, allErrors: false, strict: false, discriminator: true });
  addFormats.default(ajv);
  return ajv;
}

export function installValidation(app: FastifyInstance): void {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
    const validate = (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
    // A body schema wrapped in Type.Optional (e.g. POST /sim/reset's { seed? }) also accepts a
    // request without a body, which Fastify hands to the validator as null.
    if (httpPart !== 'body' || (schema as { '~optional'?: boolean })['~optional'] !== true) return validate as never;
    const optional = (data: unknown) => {
      if (data === null || data === undefined) return true;
      const valid = validate(data);
      optional.errors = validate.errors;
      return valid;
    };
    optional.errors = null as typeof validate.errors;
    return optional as never;
  };
  app.setValidatorCompiler(compiler);
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
