import { lstat } from 'node:fs/promises';
import { openInProcess, StoreFileError, type DemoCredential, type Simulator } from '../library/in-process.ts';
import { attachRecorder } from '../scenario/recorder.ts';
import type { FastifyInstance } from 'fastify';
import { CHAOS_FLAG, loadChaos } from './chaos-flag.ts';
import { helpText, parseFlags, portOf, SIMULATOR_FLAGS, UsageError, type FlagSpec } from './args.ts';

export const SERVE_FLAGS: FlagSpec[] = [
  { name: 'host', value: 'H', help: 'listen address; anything but loopback requires --control-token', default: '127.0.0.1' },
  { name: 'port', value: 'N', help: '0 picks a free port', default: '4010' },
  ...SIMULATOR_FLAGS,
  { name: 'limits', value: 'on|off', help: 'off lifts request-rate limits (run and spend limits stay)', default: 'on', choices: ['on', 'off'] },
  { name: 'control-token', value: 'T', help: 'every /sim request must carry x-understudy-control-token: T' },
  { name: 'cors', value: 'ORIGIN', help: 'let pages from ORIGIN (e.g. http://localhost:5173; * for any) read the keyless /v1 routes; repeatable or comma-separated', repeatable: true },
  CHAOS_FLAG,
  { name: 'webhook-time', value: 'wall|simulated', help: 'what webhook attempts are signed with (x-service-timestamp): the real time they are sent, or the simulated clock (--record uses simulated)', default: 'wall', choices: ['wall', 'simulated'] },
  { name: 'record', value: 'FILE', help: 'record the session as a scenario FILE that replays to the same answers (needs a new store; FILE must not exist)' },
  { name: 'force', help: 'with --record: replace FILE if it exists' },
  { name: 'help', help: 'print this help' },
];

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

export function describeCredentials(credentials: DemoCredential[]): string {
  if (credentials.length === 0) return 'Existing store: demo keys were printed when it was created (secrets are never stored).';
  const lines = credentials.map((c) => `  ${c.profile.padEnd(14)} account ${c.accountId} (${c.accountType})  key ${c.secret}`);
  return `Demo credentials (shown once; only their hashes are stored):\n${lines.join('\n')}`;
}

/** --cors values: '*' or origins as a browser sends them (scheme://host[:port], no path). */
export function originsOf(value: string): string[] {
  const origins = value.split(',').map((o) => o.trim());
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new UsageError(`--cors takes origins such as http://localhost:5173 (scheme, host and port, no path or trailing slash), or *; got '${origin}'.`);
    }
  }
  return origins;
}

export async function serveCommand(argv: string[]): Promise<number> {
  const { flags } = parseFlags(argv, SERVE_FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('Usage: npm run serve -- [flags]   (or: understudy serve [flags])', SERVE_FLAGS));
    return 0;
  }
  const host = String(flags.host);
  const port = portOf(String(flags.port));
  const controlToken = typeof flags['control-token'] === 'string' ? flags['control-token'] : null;
  if (!LOOPBACK.test(host) && !controlToken) throw new UsageError(`Binding ${host} (not loopback) requires --control-token.`);
  const corsOrigins = typeof flags.cors === 'string' ? originsOf(flags.cors) : [];
  const chaos = typeof flags.chaos === 'string' ? await loadChaos(flags.chaos) : undefined;
  const recordTo = typeof flags.record === 'string' ? flags.record : null;
  if (flags.force && !recordTo) throw new UsageError('--force only goes with --record FILE (it lets the recording replace FILE).');
  // A recording is evidence: an existing file (or link, or anything else by that name) is never replaced unasked.
  if (recordTo && !flags.force && (await lstat(recordTo).then(() => true, () => false))) {
    throw new UsageError(`--record: ${recordTo} already exists; pass --force to replace it, or name a new file.`);
  }
  // The recorder attaches before the app is sealed; demo credentials are known only after the store opens.
  let attach: ((app: FastifyInstance, sim: Simulator) => void) | undefined;
  let recorderStart: { demo: DemoCredential[]; demoSeededAt?: string } | null = null;
  let recorder: ReturnType<typeof attachRecorder> | null = null;
  if (recordTo) {
    attach = (app, sim) => {
      if (!sim.created) throw new UsageError(`--record needs a new store so the recording replays from the start; ${String(flags.store)} already exists.`);
      recorderStart = { demo: [] };
      recorder = attachRecorder(app, () => sim.deps.clock.nowIso(), recordTo, Object.assign(recorderStart, { seed: String(flags.seed), env: flags.env as 'test' | 'production', limits: flags.limits === 'on' }));
    };
  }
  let built;
  try {
    built = await openInProcess({
      storePath: String(flags.store),
      seed: String(flags.seed),
      env: flags.env as 'test' | 'production',
      clock: flags.clock as 'realtime' | 'frozen',
      // A recording replays to byte-identical answers, webhook signatures included.
      webhookTime: recordTo ? 'simulated' : (flags['webhook-time'] as 'wall' | 'simulated'),
      limits: flags.limits === 'on',
      controlToken,
      corsOrigins,
      chaos,
      logger: true,
      beforeReady: attach,
    });
  } catch (error) {
    if (error instanceof StoreFileError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // Demo data belongs to one instant, so a recording can replay it exactly.
  const { credentials, seededAt } = built.sim.created ? built.seedDemo() : { credentials: [], seededAt: built.sim.deps.clock.nowIso() };
  // The recorder learns the demo keys' secrets only in memory, to name them k<key id>.
  const start = recorderStart as { demo: DemoCredential[]; demoSeededAt?: string } | null;
  if (start) {
    start.demo.push(...credentials);
    start.demoSeededAt = seededAt;
  }
  const address = await built.app.listen({ host, port });
  const url = new URL(address);
  process.stdout.write(`understudy listening on http://${host.includes(':') ? `[${host}]` : host}:${url.port}\n`);
  process.stdout.write(`${describeCredentials(credentials)}\n`);
  built.sim.startRealtimeTicks();
  return new Promise<number>((resolve) => {
    let stopping = false;
    // A clean stop exits 0 even when the disk refused writes: every change that was
    // answered as done is in the store's files (refused ones were answered 503), so
    // what could not be written at the end is reported, not turned into a failure.
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      let code = 0;
      try {
        const problem = await built.close();
        if (problem) process.stderr.write(`understudy: the store could not write its final checkpoint (${problem.message}); its files hold every acknowledged change.\n`);
      } catch (error) {
        process.stderr.write(`understudy: stopping failed: ${(error as Error).message}\n`);
        code = 1;
      }
      try {
        await (recorder as ReturnType<typeof attachRecorder> | null)?.flush();
      } catch (error) {
        process.stderr.write(`understudy: the recording could not be written: ${(error as Error).message}\n`);
        code = 1;
      }
      resolve(code);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
