import type { AddressInfo } from 'node:net';
import { createElement } from 'react';
import { render } from 'ink';
import { buildSimulator, type BuiltSimulator } from '../../sim/app.ts';
import { seedDemo } from '../../sim/domain/demo.ts';
import { StoreFileError } from '../../sim/store/store-file-error.ts';
import { ApiError, createClient, type Client, type Scope } from '../client/index.ts';
import { App } from '../tui/app.tsx';
import type { ScenarioStepper, StepView } from '../tui/scenario-stepper.ts';
import { openScenarioSession } from '../scenario/runner.ts';
import { redact } from '../scenario/transcript.ts';
import { createConsoleStore } from '../tui/state/store.ts';
import type { InboxDelivery, WebhookInbox } from '../tui/webhook-inbox.ts';
import { createReceiver, type ReceivedDelivery, type ReceiverOptions } from '../webhook/receiver.ts';
import { helpText, parseFlags, SIMULATOR_FLAGS, UsageError, type FlagSpec } from './args.ts';
import { playOptions, PLAY_FLAGS } from './play.ts';
import { listFixtureScenarios } from './scenario-files.ts';
import { loadScenario } from './scenario.ts';

/**
 * `understudy tui` (the default command, `npm start`): the console, with the
 * simulator embedded, or driving another simulator or the real service with
 * --url and --key (control features hidden there).
 */

// The simulator flags without their defaults, so that passing one alongside --url can be told apart from not passing it.
const EMBEDDED_FLAGS: FlagSpec[] = SIMULATOR_FLAGS.map(({ default: _default, ...spec }) => spec);

export const TUI_FLAGS: FlagSpec[] = [
  ...EMBEDDED_FLAGS,
  { name: 'url', value: 'URL', help: 'drive the simulator or service at URL instead of an embedded one (needs --key)' },
  { name: 'key', value: 'KEY', help: 'the API key secret to use with --url' },
  ...PLAY_FLAGS,
  { name: 'help', help: 'print this help' },
];

const NEEDS_TTY = 'understudy console needs an interactive terminal (TTY); use `npm run serve` for headless use';

/** A key for the console on a store whose demo secrets were shown once and are gone. */
const CONSOLE_KEY = {
  profile: 'local_custody' as const,
  name: 'console',
  // 1,000 ETH: generous enough that rehearsals are never stopped by the console's own budget.
  spendLimitAtomic: '1000000000000000000000',
  scopes: ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read', 'monitors:read', 'monitors:write'] satisfies Scope[],
  expiresInDays: 90,
};

interface ConsoleTarget {
  client: Client;
  controlAvailable: boolean;
  accountId: string | null;
  /** Undoes what starting did: revokes a minted key, closes the simulator (flushing the store). */
  close(): Promise<void>;
}

export async function tuiCommand(argv: string[]): Promise<number> {
  const { flags } = parseFlags(argv, TUI_FLAGS);
  if (flags.help) {
    process.stdout.write(
      helpText(
        'Usage: npm start -- [flags]   (or: understudy tui [flags])\n\nThe terminal console. Without --url it embeds the simulator (defaults as for serve).',
        TUI_FLAGS.map((spec) => SIMULATOR_FLAGS.find((s) => s.name === spec.name) ?? spec),
      ),
    );
    return 0;
  }
  // Usage mistakes are reported before the terminal check, so they show up in scripts too.
  const start = typeof flags.url === 'string' ? remoteTarget(flags) : embeddedTarget(flags);
  const play = playOptions(flags);
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) {
    process.stderr.write(`${NEEDS_TTY}\n`);
    return 2;
  }

  let target: ConsoleTarget;
  try {
    target = await start();
  } catch (error) {
    if (error instanceof StoreFileError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }

  // The webhook inbox needs the control API (destinations are web-session only in production) and a simulator that can reach 127.0.0.1.
  const inbox = target.controlAvailable ? await startWebhookInbox(target.client).catch(() => null) : null;
  const store = createConsoleStore({
    client: target.client,
    controlAvailable: target.controlAvailable,
    accountId: target.accountId,
    inbox,
    openScenario: target.controlAvailable ? openScenarioFile : null,
    listScenarioFiles: listFixtureScenarios,
    play,
  });
  // The alternate screen keeps the console out of the scrollback, as full-screen terminal programs do.
  process.stdout.write('\u001B[?1049h\u001B[H');
  const instance = render(createElement(App, { store }), { exitOnCtrlC: true });
  // Ctrl+C in the console arrives as a key (raw mode); these are signals sent from outside.
  const stopOnSignal = () => instance.unmount();
  process.once('SIGTERM', stopOnSignal);
  process.once('SIGINT', stopOnSignal);
  try {
    await instance.waitUntilExit();
  } finally {
    process.off('SIGTERM', stopOnSignal);
    process.off('SIGINT', stopOnSignal);
    process.stdout.write('\u001B[?1049l');
    // A scenario being stepped runs on a simulator of its own, which would keep the process alive.
    await store.getState().actions.closeScenario();
    await inbox?.close();
    await target.close();
  }
  return 0;
}

/** Checks the flags now; the returned function connects. */
function remoteTarget(flags: Record<string, string | boolean>): () => Promise<ConsoleTarget> {
  const given = EMBEDDED_FLAGS.filter((spec) => flags[spec.name] !== undefined).map((spec) => `--${spec.name}`);
  if (given.length) throw new UsageError(`Flags for the embedded simulator (${given.join(', ')}) cannot be combined with --url.`);
  if (typeof flags.key !== 'string') throw new UsageError('--url needs --key KEY (the API key secret to use there).');
  let url: URL;
  try {
    url = new URL(String(flags.url));
  } catch {
    throw new UsageError(`--url must be an absolute URL such as http://127.0.0.1:4010 (got '${String(flags.url)}').`);
  }
  const key = flags.key;
  return async () => ({ client: createClient({ baseUrl: url.toString(), key }), controlAvailable: false, accountId: null, close: async () => undefined });
}

/** Checks the flags now; the returned function builds the simulator and picks the console's key. */
function embeddedTarget(flags: Record<string, string | boolean>): () => Promise<ConsoleTarget> {
  if (typeof flags.key === 'string') throw new UsageError('--key is for --url; the embedded simulator makes its own key.');
  const option = (name: string) => String(flags[name] ?? SIMULATOR_FLAGS.find((s) => s.name === name)!.default);
  return () => startEmbedded(option);
}

async function startEmbedded(option: (name: string) => string): Promise<ConsoleTarget> {
  const built = await buildSimulator({
    storePath: option('store'),
    seed: option('seed'),
    env: option('env') as 'test' | 'production',
    clock: option('clock') as 'realtime' | 'frozen',
    limits: true,
  });
  try {
    const baseUrl = await built.app.listen({ host: '127.0.0.1', port: 0 });
    built.sim.startRealtimeTicks();
    return built.sim.created ? demoTarget(built, baseUrl) : await mintedKeyTarget(built, baseUrl);
  } catch (error) {
    await built.close();
    throw error;
  }
}

/**
 * Closes the embedded simulator (flushing the store) without waiting on the
 * console's keep-alive connections: a request still in flight when the
 * console quits would otherwise hold the server open for its keep-alive
 * timeout (72 s in Fastify) before the process can exit.
 */
async function closeSimulator(built: BuiltSimulator): Promise<void> {
  const closing = built.close();
  built.app.server.closeAllConnections();
  await closing;
}

/** A new store: seed the demo data and use its ETH key (the EVM account, which also holds monitor scopes). */
function demoTarget(built: BuiltSimulator, baseUrl: string): ConsoleTarget {
  const demo = seedDemo(built.sim.deps).find((c) => c.profile === 'local_custody');
  if (!demo) throw new Error('The demo data has no local_custody key.');
  return { client: createClient({ baseUrl, key: demo.secret }), controlAvailable: true, accountId: demo.accountId, close: () => closeSimulator(built) };
}

/**
 * An existing store keeps only key hashes, so the console mints its own key
 * through the control API, as any other tool would, and revokes it on exit.
 */
async function mintedKeyTarget(built: BuiltSimulator, baseUrl: string): Promise<ConsoleTarget> {
  const control = createClient({ baseUrl });
  const { account, key, secret } = await mintConsoleKey(control);
  return {
    client: createClient({ baseUrl, key: secret }),
    controlAvailable: true,
    accountId: account.id,
    async close() {
      await control.sim.revokeKey(key.id).catch(() => undefined);
      await closeSimulator(built);
    },
  };
}

/**
 * On the first EVM account that still takes a key. Spec 8 caps an account at
 * 50 keys including revoked ones, and every launch on an existing store
 * mints one, so a long-used account eventually refuses (409); the console
 * then moves on, and as a last resort opens a new (unfunded) EVM account.
 */
async function mintConsoleKey(control: Client) {
  const accounts = (await control.sim.accounts()).filter((a) => a.type === 'evm');
  for (const account of accounts) {
    try {
      return { account, ...(await control.sim.createKey(account.id, CONSOLE_KEY)) };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
  }
  const account = await control.sim.createAccount({ type: 'evm', label: 'Console account' });
  return { account, ...(await control.sim.createKey(account.id, CONSOLE_KEY)) };
}

/**
 * The console's webhook inbox: src/webhook/receiver.ts on 127.0.0.1, on the
 * simulator's clock (a frozen clock is far from wall time, and spec 6.2's
 * receiver rejects timestamps more than 5 minutes off). It verifies with the
 * signing secret of the destination the console creates, set once known.
 */
export async function startWebhookInbox(client: Client): Promise<WebhookInbox> {
  let secret = '';
  let lastNowIso = new Date().toISOString();
  const received: InboxDelivery[] = [];
  const seenCounts = new Map<string, number>();
  const listeners = new Set<() => void>();
  const options: ReceiverOptions = {
    // Read at every delivery, so the secret can be set after the receiver starts.
    get secret() {
      return secret;
    },
    nowSeconds: async () => {
      try {
        lastNowIso = (await client.sim.clock()).now;
      } catch {
        lastNowIso = new Date().toISOString();
      }
      return Math.floor(Date.parse(lastNowIso) / 1000);
    },
    onDelivery: (delivery: ReceivedDelivery) => {
      const seenCount = delivery.eventId ? (seenCounts.get(delivery.eventId) ?? 0) + 1 : 1;
      if (delivery.eventId) seenCounts.set(delivery.eventId, seenCount);
      received.push({ receivedAt: lastNowIso, eventId: delivery.eventId, verdict: delivery.verdict, status: delivery.status, type: delivery.type, seenCount, payload: delivery.payload });
      for (const listener of listeners) listener();
    },
  };
  const server = createReceiver(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/inbox`,
    setSecret(value) {
      secret = value;
    },
    deliveries: () => [...received],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads and checks a scenario file, then provisions it on a fresh simulator, ready to step. */
export async function openScenarioFile(file: string): Promise<ScenarioStepper> {
  const scenario = await loadScenario(file);
  const session = await openScenarioSession(scenario, file);
  return {
    name: scenario.name,
    description: scenario.description ?? null,
    file,
    total: scenario.steps.length,
    provisioned: session.result.provisioned,
    nextIndex: () => session.nextIndex,
    isDone: () => session.done,
    async step() {
      const result = await session.step();
      if (!result) throw new Error('The scenario has no more steps.');
      const balances = (await session.balances()).map((b) => ({ name: b.account, accountId: b.accountId, balances: b.balances }));
      // Ports and secrets are shown as the transcript shows them.
      return JSON.parse(redact(JSON.stringify({ ...result, balances }), session.result)) as StepView;
    },
    close: () => session.close(),
  };
}
