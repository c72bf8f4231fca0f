import { buildSimulator } from '../../sim/app.ts';
import { seedDemo, type DemoCredential } from '../../sim/domain/demo.ts';
import { StoreFileError } from '../../sim/store/store-file-error.ts';
import { helpText, parseFlags, portOf, SIMULATOR_FLAGS, UsageError, type FlagSpec } from './args.ts';

export const SERVE_FLAGS: FlagSpec[] = [
  { name: 'host', value: 'H', help: 'listen address; anything but loopback requires --control-token', default: '127.0.0.1' },
  { name: 'port', value: 'N', help: '0 picks a free port', default: '4010' },
  ...SIMULATOR_FLAGS,
  { name: 'limits', value: 'on|off', help: 'off lifts request-rate limits (run and spend limits stay)', default: 'on', choices: ['on', 'off'] },
  { name: 'control-token', value: 'T', help: 'every /sim request must carry x-understudy-control-token: T' },
  { name: 'help', help: 'print this help' },
];

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

export function describeCredentials(credentials: DemoCredential[]): string {
  if (credentials.length === 0) return 'Existing store: demo keys were printed when it was created (secrets are never stored).';
  const lines = credentials.map((c) => `  ${c.profile.padEnd(14)} account ${c.accountId} (${c.accountType})  key ${c.secret}`);
  return `Demo credentials (shown once; only their hashes are stored):\n${lines.join('\n')}`;
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
  let built;
  try {
    built = await buildSimulator({
      storePath: String(flags.store),
      seed: String(flags.seed),
      env: flags.env as 'test' | 'production',
      clock: flags.clock as 'realtime' | 'frozen',
      limits: flags.limits === 'on',
      controlToken,
      logger: true,
    });
  } catch (error) {
    if (error instanceof StoreFileError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const credentials = built.sim.created ? seedDemo(built.sim.deps) : [];
  const address = await built.app.listen({ host, port });
  const url = new URL(address);
  process.stdout.write(`understudy listening on http://${host.includes(':') ? `[${host}]` : host}:${url.port}\n`);
  process.stdout.write(`${describeCredentials(credentials)}\n`);
  built.sim.startRealtimeTicks();
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await built.close();
      resolve(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
