import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ACTIONS, type Scenario } from './format.ts';
import { scenarioSchema } from './schema.ts';

/**
 * Checks a scenario against the schema and names the step index and field of
 * the first mistake. Steps are checked one by one against the schema of the
 * action they hold, so a mistake reads "steps[3].advance.seconds ..." rather
 * than "must match exactly one schema".
 */
export class ScenarioFormatError extends Error {
  constructor(readonly file: string, readonly where: string, problem: string) {
    super(`${file}: ${where} ${problem}`);
    this.name = 'ScenarioFormatError';
  }
}

// The schema is a module constant, checked against its meta-schema by test/scenarios (not at every
// start: measured 2026-11-28, that check took 113 ms of all shipped scenarios' 3.05 s of CPU).
const ajv = new Ajv2020.default({ allErrors: false, strict: false, validateSchema: false });
addFormats.default(ajv);
const topLevel = ajv.compile({ ...scenarioSchema, properties: { ...scenarioSchema.properties, steps: { type: 'array' } } });
const stepSchemas = scenarioSchema.properties.steps.items.oneOf;
/** The fields every step may have beside its action. */
const STEP_FIELDS = ['name', 'save', 'expect'];
const stepValidators = new Map(ACTIONS.map((action, i) => [action, ajv.compile(stepSchemas[i])]));

function describe(prefix: string, error: { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }): [string, string] {
  const path = error.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  const where = `${prefix}${path}`;
  if (error.keyword === 'additionalProperties') return [`${where}.${String(error.params.additionalProperty)}`, 'is not a known field'];
  if (error.keyword === 'required') return [`${where}.${String(error.params.missingProperty)}`, 'is required'];
  if (error.keyword === 'enum') return [where, `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`];
  return [where, error.message ?? 'is invalid'];
}

export function validateScenario(value: unknown, file: string): Scenario {
  if (!topLevel(value)) {
    const [where, problem] = describe('', topLevel.errors![0]);
    throw new ScenarioFormatError(file, where || '(top level)', problem);
  }
  const scenario = value as Scenario;
  scenario.steps.forEach((step, index) => {
    const prefix = `steps[${index}]`;
    if (typeof step !== 'object' || step === null || Array.isArray(step)) throw new ScenarioFormatError(file, prefix, 'must be an object');
    const actions = ACTIONS.filter((a) => a in step);
    if (actions.length === 0) {
      // Name the field that was meant as an action ("steps[2].jump"), when there is one.
      const unknown = Object.keys(step).find((k) => !STEP_FIELDS.includes(k));
      if (unknown !== undefined) throw new ScenarioFormatError(file, `${prefix}.${unknown}`, `is not a known step action (one of ${ACTIONS.join(', ')})`);
    }
    if (actions.length !== 1) throw new ScenarioFormatError(file, prefix, `needs exactly one of ${ACTIONS.join(', ')} (found ${actions.length === 0 ? 'none' : actions.join(', ')})`);
    const validate = stepValidators.get(actions[0])!;
    if (!validate(step)) {
      const [where, problem] = describe(prefix, validate.errors![0]);
      throw new ScenarioFormatError(file, where, problem);
    }
  });
  return scenario;
}
