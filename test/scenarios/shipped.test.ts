import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { runScenario } from '../../src/scenario/runner.ts';
import { textTranscript } from '../../src/scenario/transcript.ts';

/** (a) Every shipped scenario runs and every expectation in it holds. */
const DIR = 'fixtures/scenarios';
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

describe('shipped scenarios', () => {
  it('there are at least 15, numbered and pointing at the published schema', async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(15);
    for (const file of FILES) {
      expect(file).toMatch(/^\d{2}-[a-z0-9-]+\.json$/);
      const scenario = (await loadScenario(join(DIR, file))) as { $schema?: string; description?: string };
      expect(scenario.$schema).toBe('../../docs/scenario.schema.json');
      expect(scenario.description?.length).toBeGreaterThan(40);
    }
  });

  it.each(FILES)('%s passes', async (file) => {
    const path = join(DIR, file);
    const scenario = await loadScenario(path);
    const result = await runScenario(scenario, path);
    const failures = result.steps.flatMap((s) => [...(s.error ? [`[${s.index}] ${s.error}`] : []), ...s.checks.filter((c) => !c.ok).map((c) => `[${s.index}] ${c.what}`)]);
    // The transcript names what failed, with expected and actual values.
    expect(failures, textTranscript(result)).toEqual([]);
    expect(result.passed).toBe(true);
    // Every step ran (an error stops a scenario early).
    expect(result.steps).toHaveLength(scenario.steps.length);
    expect(result.steps.flatMap((s) => s.checks).length).toBeGreaterThan(5);
  });
});
