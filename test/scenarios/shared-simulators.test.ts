import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/scenario/format.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { runScenario } from '../../src/scenario/runner.ts';
import { newSimulators, sharedSimulators, type ScenarioSimulators } from '../../src/scenario/simulators.ts';
import { jsonTranscript } from '../../src/scenario/transcript.ts';

/**
 * `understudy scenario FILE...` runs its files on shared simulators, each reset to
 * the next scenario's seed (src/scenario/simulators.ts): every transcript must be
 * byte for byte the one a new simulator gives, whatever ran on it before.
 */
const DIR = 'fixtures/scenarios';

async function transcripts(runs: Array<[Scenario, string]>, simulators: ScenarioSimulators): Promise<string[]> {
  const out: string[] = [];
  try {
    for (const [scenario, file] of runs) out.push(JSON.stringify(jsonTranscript(await runScenario(scenario, file, simulators))));
  } finally {
    await simulators.closeAll();
  }
  return out;
}

describe('scenarios on shared simulators', () => {
  it('give every shipped scenario the transcript a new simulator gives, in order and in reverse', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.json')).sort().map((f) => `${DIR}/${f}`);
    const runs: Array<[Scenario, string]> = [];
    for (const file of files) runs.push([await loadScenario(file), file]);
    const alone = await transcripts(runs, newSimulators);
    expect(alone.length).toBeGreaterThan(20);
    expect(await transcripts(runs, sharedSimulators())).toEqual(alone);
    expect(await transcripts([...runs].reverse(), sharedSimulators())).toEqual([...alone].reverse());
  }, 300_000);

  it('lift the chaos a scenario set, so the next one runs as on a new simulator', async () => {
    const file = `${DIR}/01-complete-report-charged.json`;
    const plain = await loadScenario(file);
    // The same scenario, under a storm it sets itself first.
    const stormy: Scenario = { ...plain, name: 'stormy', steps: [{ control: { method: 'PUT', path: '/sim/chaos', body: { profile: 'storm' } } }, ...plain.steps] };
    const [alone] = await transcripts([[plain, file]], newSimulators);
    const [, after] = await transcripts([[stormy, 'stormy'], [plain, file]], sharedSimulators());
    expect(after).toBe(alone);
  }, 300_000);
});
