import type { InputField, Listing } from '../catalog/catalog-types.ts';
import { errors } from '../errors.ts';

/**
 * Checks a quote's input against the agent's shape (spec 4.3) and returns the
 * bound input with documented defaults filled in. Every refusal names the field.
 */
export const WORKFLOW_ID = 'service.workflow.v1';
const TOKEN_SCOPE = 'metadata-and-controls';

type Input = Record<string, unknown>;

function isObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkFields(values: Input, fields: InputField[], path: string, extra: string[] = []): void {
  const known = new Set([...fields.map((f) => f.name), ...extra]);
  for (const name of Object.keys(values)) {
    if (!known.has(name)) throw errors.invalidInput(`${path}: unknown field '${name}' is not an input of this agent.`);
  }
  for (const field of fields) {
    const value = values[field.name];
    const where = `${path}.${field.name}`;
    if (value === undefined) {
      if (field.required) throw errors.invalidInput(`${where} is required.`);
      continue;
    }
    if (typeof value !== 'string') throw errors.invalidInput(`${where} must be a string.`);
    if (value.length > field.maxLength) throw errors.invalidInput(`${where} must be at most ${field.maxLength} characters.`);
    if (field.enum && !field.enum.includes(value)) throw errors.invalidInput(`${where} must be one of ${field.enum.join(', ')}.`);
    if (field.pattern && !new RegExp(field.pattern).test(value)) throw errors.invalidInput(`${where} does not match the pattern ${field.pattern}.`);
  }
}

export function bindInput(listing: Listing, raw: unknown): Input {
  if (!isObject(raw)) throw errors.invalidInput('input must be an object.');
  switch (listing.agentKind) {
    case 'token_research': {
      checkFields(raw, listing.inputFields, 'input');
      return { ...raw, scope: raw.scope ?? TOKEN_SCOPE };
    }
    case 'research_workflow': {
      for (const name of Object.keys(raw)) {
        if (!['workflow', 'chain', 'values'].includes(name)) throw errors.invalidInput(`input: unknown field '${name}' is not allowed (a workflow input holds workflow, chain and values).`);
      }
      if (raw.workflow !== WORKFLOW_ID) throw errors.invalidInput(`input.workflow must be '${WORKFLOW_ID}'.`);
      if (typeof raw.chain !== 'string') throw errors.invalidInput('input.chain is required and must be a string.');
      if (!listing.chains.includes(raw.chain as never)) throw errors.invalidInput(`input.chain must be one of ${listing.chains.join(', ')}.`);
      if (!isObject(raw.values)) throw errors.invalidInput('input.values is required and must be an object of named strings.');
      checkFields(raw.values, listing.inputFields, 'input.values');
      return { workflow: raw.workflow, chain: raw.chain, values: raw.values };
    }
    case 'solana_transaction_inspection':
    case 'named_fields': {
      checkFields(raw, listing.inputFields, 'input');
      const chain = raw.chain ?? raw.analysisChain;
      if (typeof chain === 'string' && !listing.chains.includes(chain as never)) throw errors.invalidInput(`input.chain must be one of ${listing.chains.join(', ')}.`);
      return { ...raw };
    }
  }
}

/** The chain a run of this input reads (its first chain when the input names none). */
export function chainOfInput(listing: Listing, input: Input): string {
  const named = input.chain ?? input.analysisChain;
  return typeof named === 'string' ? named : listing.chains[0];
}
