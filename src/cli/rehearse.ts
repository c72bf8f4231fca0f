import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openInProcess } from '../library/in-process.ts';
import type { ChaosProfile } from '../../sim/drill/profiles.ts';
import type { SimConductReport as ConductReport } from '../client/conduct-report.ts';
import { createClient } from '../client/index.ts';
import type { Profile } from '../client/types.ts';
import { checkSeed, helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { CHAOS_FLAG, loadChaos } from './chaos-flag.ts';
import { reportTable } from './report-table.ts';

export const REHEARSE_FLAGS: FlagSpec[] = [
  CHAOS_FLAG,
  { name: 'seed', value: 'N', help: 'seeds the simulator and the fault stream', default: '1', check: checkSeed },
  { name: 'report', value: 'FILE', help: 'where the report is written as JSON', default: '.understudy/drill-report.json' },
  {
    name: 'speed',
    value: 'X',
    help: 'simulated seconds per real second, so runs and quote expiries take seconds of wall time',
    default: '20',
    check: (v) => {
      if (!/^[1-9][0-9]{0,3}$/.test(v)) throw new UsageError(`--speed must be a whole number from 1 to 9999 (got '${v}').`);
    },
  },
  { name: 'help', help: 'print this help' },
];

const USAGE = 'Usage: npm run rehearse -- [flags] -- COMMAND [ARGS...]';

/** The funded accounts and keys a drill hands its command, one key per rail (the demo's amounts). */
const FUNDS: Array<{ type: 'solana' | 'evm'; profile: Profile; depositAtomic: string; spendLimitAtomic: string; env: string }> = [
  { type: 'evm', profile: 'local_custody', depositAtomic: '2000000000000000000', spendLimitAtomic: '1000000000000000000', env: 'UNDERSTUDY_KEY' },
  { type: 'solana', profile: 'solana_sol', depositAtomic: '10000000000', spendLimitAtomic: '5000000000', env: 'UNDERSTUDY_SOL_KEY' },
  { type: 'solana', profile: 'solana_usdc', depositAtomic: '500000000', spendLimitAtomic: '250000000', env: 'UNDERSTUDY_USDC_KEY' },
  { type: 'evm', profile: 'sim', depositAtomic: '1000000000', spendLimitAtomic: '500000000', env: 'UNDERSTUDY_SIM_KEY' },
];
const BASE_SCOPES = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read'] as const;

export interface DrillOptions {
  command: string;
  args: string[];
  chaos?: ChaosProfile;
  seed: string;
  speed: number;
  /** Where the command's output goes (the command line inherits the terminal). */
  stdio?: 'inherit' | 'pipe';
  /** More environment for the command (a test names each run's fault log). */
  env?: Record<string, string>;
  /** Run once the command has exited, before the report is read: a test settles runs and reads the ledger over the control API at this URL. */
  beforeReport?: (url: string) => Promise<void>;
}

export interface DrillResult {
  report: ConductReport;
  commandExit: number | null;
  output: string;
}

/**
 * A drill (docs/drill.md): a fresh simulator in a temporary folder, funded keys on
 * every rail, the command run against it while simulated time runs `speed` times
 * faster than real time (realtime clock, advanced by the rest every tenth of a
 * second, in process: not a clock move the client was shown), and the graded report
 * of what the command's requests did.
 */
export async function runDrill(options: DrillOptions): Promise<DrillResult> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-drill-'));
  const built = await openInProcess({ storePath: join(dir, 'store.json'), seed: options.seed, clock: 'realtime', limits: true, chaos: options.chaos });
  try {
    const url = (await built.app.listen({ host: '127.0.0.1', port: 0 })).replace('localhost', '127.0.0.1');
    built.sim.startRealtimeTicks();
    const control = createClient({ baseUrl: url });
    const env: Record<string, string> = { ...options.env, UNDERSTUDY_URL: url, UNDERSTUDY_CONTROL_URL: url };
    const accounts = new Map<string, string>();
    for (const fund of FUNDS) {
      let accountId = accounts.get(fund.type);
      if (!accountId) accounts.set(fund.type, (accountId = (await control.sim.createAccount({ type: fund.type, label: `drill ${fund.type}` })).id));
      await control.sim.deposit(accountId, { profile: fund.profile, amountAtomic: fund.depositAtomic });
      const scopes = fund.profile === 'local_custody' ? [...BASE_SCOPES, 'monitors:read', 'monitors:write'] : [...BASE_SCOPES];
      const { secret } = await control.sim.createKey(accountId, { profile: fund.profile, spendLimitAtomic: fund.spendLimitAtomic, name: `drill ${fund.profile}`, scopes: scopes as never, expiresInDays: 90 });
      env[fund.env] = secret;
    }
    const stopSpeeding = speedUp((seconds) => built.sim.advanceClock({ seconds }), options.speed);
    let commandExit: number | null;
    let output = '';
    try {
      ({ exit: commandExit, output } = await runCommand(options, env));
    } finally {
      await stopSpeeding();
    }
    await options.beforeReport?.(url);
    const report = await (await fetch(`${url}/sim/report`)).json() as ConductReport;
    return { report, commandExit, output };
  } finally {
    await built.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Advances the clock by (speed - 1) tenths of a second every tenth of a second; returns a stop that waits for the last advance. */
function speedUp(advance: (seconds: number) => Promise<unknown>, speed: number): () => Promise<void> {
  if (speed <= 1) return async () => {};
  let last: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    last = advance((speed - 1) / 10).catch(() => undefined).finally(() => (busy = false));
  }, 100);
  return async () => {
    clearInterval(timer);
    await last;
  };
}

function runCommand(options: DrillOptions, env: Record<string, string>): Promise<{ exit: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, { env: { ...process.env, ...env }, stdio: options.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => reject(new UsageError(`rehearse: cannot run '${options.command}': ${error.message}`)));
    child.once('close', (code) => resolve({ exit: code, output }));
  });
}

export async function rehearseCommand(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const { flags } = parseFlags(split === -1 ? argv : argv.slice(0, split), REHEARSE_FLAGS);
  if (flags.help) {
    process.stdout.write(helpText(USAGE, REHEARSE_FLAGS));
    return 0;
  }
  const [command, ...args] = split === -1 ? [] : argv.slice(split + 1);
  if (!command) throw new UsageError(`rehearse needs a command after '--'.\n${USAGE}`);
  const chaos = typeof flags.chaos === 'string' ? await loadChaos(flags.chaos) : undefined;
  const result = await runDrill({ command, args, chaos, seed: String(flags.seed), speed: Number(flags.speed) });
  process.stdout.write(reportTable(result.report));
  const reportPath = String(flags.report);
  await mkdir(dirname(reportPath), { recursive: true });
  await writeFile(reportPath, `${JSON.stringify(result.report, null, 2)}\n`);
  process.stdout.write(`Report written to ${reportPath}.\n`);
  const failed = result.report.rules.some((r) => r.verdict === 'fail');
  if (result.commandExit !== 0) process.stdout.write(`The command exited with ${result.commandExit ?? 'a signal'}.\n`);
  return failed || result.commandExit !== 0 ? 1 : 0;
}
