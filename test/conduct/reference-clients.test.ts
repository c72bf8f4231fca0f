import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PROFILES, parseProfile, type ChaosProfile } from '../../sim/drill/profiles.ts';
import { runDrill } from '../../src/cli/rehearse.ts';
import type { SimConductReport as Report } from '../../src/client/conduct-report.ts';
import { RULE_IDS, type CommittedFault, type RuleId } from '../../fixtures/clients/core/fault-log.ts';
import { settleAndReadLedger, type RunLedger } from './settled-ledger.ts';

/**
 * Issue 26, point 2: the conduct report judged against clients whose faults are
 * known. Each reference client runs under `storm` (plus the chaos plan beside
 * it, which causes its situation) at three seeds, writing down every fault as
 * it commits it; at every run the report must fail exactly the rules of the
 * faults committed, show evidence for every pass, and name what lost answers
 * cost as the ledger shows it once every run has settled.
 */

const SEEDS = ['1', '2', '3'];
/** Drills at a time: each is a simulator in this process and a client process that mostly waits, so six share two cores. */
const AT_ONCE = 6;

interface ReferenceClient {
  name: string;
  file: string;
  /** The client's own chaos plan, run on top of storm. */
  chaos: string | null;
  /** The rules it may break. */
  breaks: readonly RuleId[];
}

const beside = (file: string) => file.replace(/\.ts$/, '.chaos.json');
const client = (name: string, file: string, breaks: readonly RuleId[], chaos = beside(file)): ReferenceClient => ({ name, file, chaos: existsSync(chaos) ? chaos : null, breaks });
const CLIENTS: ReferenceClient[] = [
  client('polite', 'fixtures/clients/polite.ts', []),
  ...RULE_IDS.map((rule) => client(rule, `fixtures/clients/faulty/${rule}.ts`, [rule])),
  client('naive', 'fixtures/clients/naive.ts', RULE_IDS, 'fixtures/clients/profiles/first-accept-lost.json'),
];

interface Drilled {
  seed: string;
  exit: number | null;
  output: string;
  report: Report;
  faults: CommittedFault[];
  ledger: Map<string, RunLedger>;
}

async function profileFor(reference: ReferenceClient): Promise<ChaosProfile> {
  if (reference.chaos === null) return BUILT_IN_PROFILES.storm;
  const own = parseProfile(JSON.parse(await readFile(reference.chaos, 'utf8')), reference.chaos);
  return { ...BUILT_IN_PROFILES.storm, name: `storm + ${own.name}`, plan: own.plan };
}

async function drillClient(reference: ReferenceClient, seed: string): Promise<Drilled> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-reference-'));
  try {
    const faultLog = join(dir, 'faults.jsonl');
    let ledger = new Map<string, RunLedger>();
    const result = await runDrill({
      command: process.execPath,
      args: ['--import', 'tsx', reference.file],
      chaos: await profileFor(reference),
      seed,
      speed: 20,
      stdio: 'pipe',
      env: { UNDERSTUDY_FAULT_LOG: faultLog },
      beforeReport: async (url) => void (ledger = await settleAndReadLedger(url)),
    });
    const logged = existsSync(faultLog) ? await readFile(faultLog, 'utf8') : '';
    const faults = logged.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as CommittedFault);
    return { seed, exit: result.commandExit, output: result.output, report: result.report, faults, ledger };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line per run for the test's output: the faults committed and each rule's verdict. */
function summary(reference: ReferenceClient, run: Drilled): string {
  const committed = [...new Set(run.faults.map((f) => f.rule))];
  const verdicts = run.report.rules.map((r) => `${r.id}=${r.verdict}`).join(' ');
  const told = run.output.split('\n').filter((line) => line.startsWith(`${reference.name}: `)).map((line) => line.slice(reference.name.length + 2));
  return `${reference.name} seed ${run.seed}: exit ${run.exit} (${told.join('; ')}), faults [${committed.join(', ')}] (${run.faults.length}), lost runs ${run.report.lostAnswers.runs.length}; ${verdicts}`;
}

function checkVerdicts(reference: ReferenceClient, run: Drilled): void {
  const context = `${summary(reference, run)}\nfaults: ${JSON.stringify(run.faults, null, 1)}\nreport: ${JSON.stringify(run.report.rules, null, 1)}\noutput: ${run.output}`;
  const committed = [...new Set(run.faults.map((f) => f.rule))].sort();
  const failed = run.report.rules.filter((r) => r.verdict === 'fail').map((r) => r.id).sort();
  // Each fault committed fails its rule, and no rule fails without one.
  expect(failed, context).toEqual(committed);
  expect(run.report.rules.filter((r) => r.verdict === 'pass' && r.evidence.length === 0).map((r) => r.id), context).toEqual([]);
  expect(committed.filter((rule) => !reference.breaks.includes(rule as RuleId)), context).toEqual([]);
  // Short clients: no line a verdict needed was dropped.
  expect(run.report.truncated, context).toEqual([]);
}

/** Once every run has settled, what the report says lost answers cost is what the ledger shows for those runs. */
function checkLostAnswers(run: Drilled): void {
  const lost = run.report.lostAnswers;
  const context = `seed ${run.seed}: ${JSON.stringify(lost)}`;
  let reserved = 0n;
  let charged = 0n;
  for (const named of lost.runs) {
    const ledger = run.ledger.get(named.runId);
    expect(ledger, `${context}: run ${named.runId} is not in any ledger`).toBeDefined();
    expect({ runId: named.runId, reservedAtomic: named.reservedAtomic, chargedAtomic: named.chargedAtomic, heldAtomic: named.heldAtomic }, context).toEqual({
      runId: named.runId,
      reservedAtomic: String(ledger!.reservedAtomic),
      chargedAtomic: String(ledger!.chargedAtomic),
      heldAtomic: '0',
    });
    // The run bought instead is another run, one the client did learn of.
    if (named.boughtInstead !== null) expect(named.boughtInstead, context).not.toBe(named.runId);
    reserved += ledger!.reservedAtomic;
    charged += ledger!.chargedAtomic;
  }
  expect({ reservedAtomic: lost.reservedAtomic, chargedAtomic: lost.chargedAtomic, heldAtomic: lost.heldAtomic }, context).toEqual({
    reservedAtomic: String(reserved),
    chargedAtomic: String(charged),
    heldAtomic: '0',
  });
}

/** Runs jobs, at most `limit` at a time, in the order they were asked for. */
function pool(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (job) => {
    if (active < limit) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      // The place passes to the next job waiting, or is given back.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

describe('reference clients with known faults, under storm at three seeds', () => {
  // Every drill starts at once (six at a time); each client's test awaits its own three.
  const drilled = new Map<string, Promise<Drilled[]>>();
  beforeAll(() => {
    const atOnce = pool(AT_ONCE);
    for (const reference of CLIENTS) {
      const runs = Promise.all(SEEDS.map((seed) => atOnce(() => drillClient(reference, seed))));
      // Awaited by the client's test, which reports a failure; this only keeps it from surfacing first as unhandled.
      runs.catch(() => undefined);
      drilled.set(reference.name, runs);
    }
  });

  for (const reference of CLIENTS) {
    it(`${reference.name}${reference.chaos ? ` (plan: ${reference.chaos})` : ''}`, async () => {
      const runs = await drilled.get(reference.name)!;
      process.stdout.write(`${runs.map((run) => summary(reference, run)).join('\n')}\n`);
      for (const run of runs) {
        checkVerdicts(reference, run);
        checkLostAnswers(run);
      }
      if (reference.breaks.length === 0) {
        // The polite client finishes its errand and learns of every run it made.
        for (const run of runs) expect([run.exit, run.report.lostAnswers.runs], run.output).toEqual([0, []]);
      } else {
        // A fault need not happen at every seed, but it must happen at one.
        expect(runs.some((run) => run.faults.some((f) => reference.breaks.includes(f.rule))), runs.map((run) => summary(reference, run)).join('\n')).toBe(true);
      }
      if (reference.name === 'naive' || reference.name === 'accept-retried-with-same-key') {
        // The lost accept's run is named, beside the run bought instead, at one seed at least.
        expect(runs.some((run) => run.report.lostAnswers.runs.some((r) => r.boughtInstead !== null))).toBe(true);
      }
    }, 900_000);
  }
});
