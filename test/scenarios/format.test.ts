import { readFile } from 'node:fs/promises';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { scenarioSchema } from '../../src/scenario/schema.ts';
import { ScenarioFormatError, validateScenario } from '../../src/scenario/validate.ts';

/** (d) Format errors name the step index and the field; (e) the published schema is the one the runner checks with. */
const ok = { advance: { seconds: 1 } };

function formatError(steps: unknown[]): ScenarioFormatError {
  try {
    validateScenario({ name: 'broken', steps }, 'broken.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioFormatError);
    return error as ScenarioFormatError;
  }
  throw new Error('the scenario was accepted');
}

describe('format errors name the step index and field', () => {
  it('an unknown step action', () => {
    const error = formatError([ok, ok, { name: 'jump ahead', jump: { seconds: 5 } }]);
    expect(error.where).toBe('steps[2].jump');
    expect(error.message).toBe('broken.json: steps[2].jump is not a known step action (one of call, control, advance, block, reorg, check)');
  });

  it('advance.seconds: -1', () => {
    const error = formatError([ok, ok, { advance: { seconds: -1 } }]);
    expect(error.where).toBe('steps[2].advance.seconds');
    expect(error.message).toContain('steps[2].advance.seconds');
    expect(error.message).toContain('>= 0');
  });

  it('an unknown field in a call', () => {
    const error = formatError([ok, ok, { call: { method: 'GET', path: '/v1/buyer/key', kee: 'eth' } }]);
    expect(error.where).toBe('steps[2].call.kee');
    expect(error.message).toBe('broken.json: steps[2].call.kee is not a known field');
  });

  it('a missing path', () => {
    const error = formatError([ok, ok, { call: { method: 'GET' } }]);
    expect(error.where).toBe('steps[2].call.path');
    expect(error.message).toBe('broken.json: steps[2].call.path is required');
  });

  it('a step with two actions', () => {
    const error = formatError([ok, ok, { call: { method: 'GET', path: '/v1/buyer/key' }, advance: { seconds: 1 } }]);
    expect(error.where).toBe('steps[2]');
    expect(error.message).toBe('broken.json: steps[2] needs exactly one of call, control, advance, block, reorg, check (found call, advance)');
  });

  it('a step with no action at all', () => {
    const error = formatError([{ name: 'nothing to do' }]);
    expect(error.message).toBe('broken.json: steps[0] needs exactly one of call, control, advance, block, reorg, check (found none)');
  });

  it('other mistakes: a control path outside /sim, a bad method, an unknown top-level field', () => {
    expect(formatError([{ control: { method: 'POST', path: '/v1/runs' } }]).where).toBe('steps[0].control.path');
    expect(formatError([ok, { call: { method: 'FETCH', path: '/v1/buyer/key' } }]).message).toBe('broken.json: steps[1].call.method must be one of "GET", "POST", "PUT", "PATCH", "DELETE"');
    expect(() => validateScenario({ name: 'x', steps: [], step: [] }, 'x.json')).toThrow('x.json: .step is not a known field');
  });

  it('loadScenario names the file for unreadable and non-JSON files', async () => {
    await expect(loadScenario('test/scenarios/fixtures/missing.json')).rejects.toThrow(/missing\.json: \(file\) cannot be read/);
    await expect(loadScenario('test/scenarios/format.test.ts')).rejects.toThrow(/format\.test\.ts: \(file\) is not valid JSON/);
    await expect(loadScenario('test/scenarios/fixtures/format-error.json')).rejects.toThrow('steps[1].advance.seconds must be >= 0');
  });
});

describe('the published schema', () => {
  it('(e) docs/scenario.schema.json deep-equals scenarioSchema (regenerate with npx tsx scripts/write-scenario-schema.ts)', async () => {
    const published = JSON.parse(await readFile('docs/scenario.schema.json', 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(scenarioSchema)));
    expect(await readFile('docs/scenario.schema.json', 'utf8')).toBe(`${JSON.stringify(scenarioSchema, null, 2)}\n`);
  });

  it('is valid JSON Schema 2020-12 (the runner does not check it against the meta-schema at every start)', () => {
    const ajv = new Ajv2020.default({ strict: false });
    expect(ajv.validateSchema(scenarioSchema), ajv.errorsText()).toBe(true);
    // The check itself catches a schema that breaks the meta-schema.
    const broken = { ...scenarioSchema, properties: { ...scenarioSchema.properties, name: { type: 'text' } } };
    expect(ajv.validateSchema(broken)).toBe(false);
    expect(ajv.errorsText()).toContain('/properties/name/type');
  });
});
