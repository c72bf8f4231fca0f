import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadScenario } from '../../src/scenario/load.ts';
import { collectCase, type CollectedCase } from '../../src/case/collect.ts';
import { openScenarioSession } from '../../src/scenario/runner.ts';
import { createClient } from '../../src/client/index.ts';

/** Shipped scenarios and the runs they end with, collected over HTTP the way `case export` does. */
export const SCENARIO_DIR = 'fixtures/scenarios';

export async function shippedScenarioFiles(): Promise<string[]> {
  return (await readdir(SCENARIO_DIR)).filter((f) => f.endsWith('.json')).sort().map((f) => join(SCENARIO_DIR, f));
}

export interface PlayedScenario {
  url: string;
  /** Runs whose billing settled or pends, collected while the scenario's simulator still runs. */
  cases: CollectedCase[];
  passed: boolean;
}

/** Plays a scenario to its end, then collects every run that settled or pends a billing. */
export async function playAndCollect(file: string, keep?: (url: string) => Promise<void>): Promise<PlayedScenario> {
  const session = await openScenarioSession(await loadScenario(file), file);
  try {
    while (!session.done) await session.step();
    const url = session.result.redactions.find(([, name]) => name === '{{simulator}}')![0];
    const control = createClient({ baseUrl: url, retries: 0 });
    const runs = await control.sim.runs();
    const cases: CollectedCase[] = [];
    for (const run of runs) {
      const read = await control.sim.run(run.id);
      if (read.billing.status !== 'settled' && read.billing.status !== 'pending') continue;
      cases.push(await collectCase({ url, runId: run.id }));
    }
    if (keep) await keep(url);
    return { url, cases, passed: session.result.passed };
  } finally {
    await session.close();
  }
}

/** Every entry under `root` with its kind (and a file's size and time), so a file written, replaced or linked anywhere below shows. */
export async function listing(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { recursive: true })) {
    const info = await lstat(join(root, entry));
    const kind = info.isSymbolicLink() ? 'link' : info.isFIFO() ? 'fifo' : info.isDirectory() ? 'dir' : 'file';
    out.push(`${entry} ${kind}${info.isFile() ? ` ${info.size} ${info.mtimeMs}` : ''}`);
  }
  return out.sort();
}
