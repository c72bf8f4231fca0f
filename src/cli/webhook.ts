import { createReceiver } from '../webhook/receiver.ts';
import { probeReceiver } from '../webhook/probe.ts';
import { helpText, parseFlags, portOf, UsageError, type FlagSpec } from './args.ts';

/** understudy webhook listen | probe. */
const LISTEN_FLAGS: FlagSpec[] = [
  { name: 'port', value: 'N', help: 'port to listen on (0 picks one)', default: '4020' },
  { name: 'host', value: 'H', help: 'listen address', default: '127.0.0.1' },
  { name: 'secret', value: 'S', help: 'the destination signing secret (whsec_...)' },
  { name: 'sim-url', value: 'URL', help: "judge timestamps by this simulator's clock (GET URL/sim/clock) instead of the wall clock" },
  { name: 'help', help: 'print this help' },
];

const PROBE_FLAGS: FlagSpec[] = [
  { name: 'secret', value: 'S', help: 'the signing secret your receiver verifies with' },
  { name: 'sim-url', value: 'URL', help: "sign with this simulator's clock instead of the wall clock" },
  { name: 'help', help: 'print this help' },
];

export function clockFrom(simUrl: string | undefined): () => Promise<number> {
  if (!simUrl) return async () => Math.floor(Date.now() / 1000);
  return async () => {
    const response = await fetch(new URL('/sim/clock', simUrl));
    const { now } = (await response.json()) as { now: string };
    return Math.floor(Date.parse(now) / 1000);
  };
}

async function listen(argv: string[]): Promise<number> {
  const { flags } = parseFlags(argv, LISTEN_FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('Usage: understudy webhook listen --port N --secret S [--sim-url URL]', LISTEN_FLAGS));
    return 0;
  }
  if (typeof flags.secret !== 'string') throw new UsageError('--secret is required (the signing secret shown when the destination was created).');
  const server = createReceiver({
    secret: flags.secret,
    nowSeconds: clockFrom(typeof flags['sim-url'] === 'string' ? flags['sim-url'] : undefined),
    onDelivery: (d) => process.stdout.write(`${JSON.stringify(d)}\n`),
  });
  const host = String(flags.host);
  await new Promise<void>((resolve) => server.listen(portOf(String(flags.port)), host, resolve));
  const port = (server.address() as { port: number }).port;
  process.stdout.write(`understudy webhook receiver listening on http://${host}:${port}\n`);
  return new Promise((resolve) => {
    const stop = () => server.close(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function probe(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, PROBE_FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('Usage: understudy webhook probe URL --secret S', PROBE_FLAGS));
    return 0;
  }
  const url = positionals[0];
  if (!url) throw new UsageError('probe needs the URL of your receiver.');
  if (typeof flags.secret !== 'string') throw new UsageError('--secret is required.');
  const now = await clockFrom(typeof flags['sim-url'] === 'string' ? flags['sim-url'] : undefined)();
  const cases = await probeReceiver(url, flags.secret, now);
  for (const c of cases) {
    process.stdout.write(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name.padEnd(32)} expected ${c.expectation}; ${c.detail}\n`);
    if (c.unseen) process.stdout.write(`      not checked: ${c.unseen}\n`);
  }
  const failed = cases.filter((c) => !c.passed).length;
  const unseen = cases.filter((c) => c.unseen).length;
  process.stdout.write(`${cases.length - failed} passed, ${failed} failed${unseen ? `; ${unseen} not checkable from outside (see "not checked")` : ''}\n`);
  return failed === 0 ? 0 : 1;
}

export async function webhookCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'listen') return listen(rest);
  if (sub === 'probe') return probe(rest);
  throw new UsageError('Usage: understudy webhook listen --port N --secret S | understudy webhook probe URL --secret S');
}
