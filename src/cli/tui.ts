import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createElement } from 'react';
import { render } from 'ink';
import { openInProcess, StoreFileError, type InProcessSimulator } from '../library/in-process.ts';
import { ApiError, createClient, type Client, type Scope } from '../client/index.ts';
import { App } from '../tui/app.tsx';
import { openScenarioFile } from '../scenario/stepper.ts';
import type { EvidenceSaver } from '../tui/evidence.ts';
import { createConsoleStore } from '../tui/state/store.ts';
import type { ConsoleKeyChoice, Environment } from '../tui/state/types.ts';
import type { ConsoleStoreOptions } from '../tui/state/options.ts';
import { startWebhookInbox } from '../webhook/inbox.ts';
import { helpText, parseFlags, SIMULATOR_FLAGS, UsageError, type FlagSpec } from './args.ts';
import { ConsoleFile, ConsoleFileError, consoleFilePath, type SavedKey } from './console-file.ts';
import { driftInChild } from './drift-child.ts';
import { playOptions, PLAY_FLAGS } from './play.ts';
import { listFixtureScenarios } from './scenario-files.ts';

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

/**
 * A key for the console on a store it holds no ETH key for (one made by
 * `serve`, which showed the demo secrets once): made once, then kept in the
 * console's file and reused, so its spend carries over from session to session.
 */
const CONSOLE_KEY = {
  profile: 'local_custody' as const,
  name: 'console',
  // 1,000 ETH: generous enough that rehearsals are never stopped by the console's own budget.
  spendLimitAtomic: '1000000000000000000000',
  scopes: ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read', 'monitors:read', 'monitors:write'] satisfies Scope[],
  expiresInDays: 90,
};

/** What the console is started with, and how to undo it. */
export interface ConsoleWiring {
  options: ConsoleStoreOptions;
  /** Stops the receiver and closes the simulator (flushing the store). */
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

  let wiring: ConsoleWiring;
  try {
    wiring = await start();
  } catch (error) {
    if (error instanceof StoreFileError || error instanceof ConsoleFileError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }

  const store = createConsoleStore({ ...wiring.options, listScenarioFiles: listFixtureScenarios, play, driftCheck: typeof flags.url === 'string' ? () => driftInChild(String(flags.url), String(flags.key)) : null });
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
    await store.getState().actions.scenario.closeScenario();
    await wiring.close();
  }
  return 0;
}

/** Checks the flags now; the returned function connects. */
function remoteTarget(flags: Record<string, string | boolean>): () => Promise<ConsoleWiring> {
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
  return async () => openRemoteConsole(url, key);
}

/** Spec 5: the key's prefix names its environment (svc_live_ in production, svc_test_ in rehearsal). */
export function environmentOfKey(secret: string): Environment | null {
  if (secret.startsWith('svc_live_')) return 'production';
  if (secret.startsWith('svc_test_')) return 'test';
  return null;
}

/**
 * Another simulator or the real service: no control API, so no receiver, and
 * the key the user gave is never written down (nor shown). The runs accepted
 * through it are remembered, per service, under .understudy/ in the working
 * directory, since spec 4 gives a key no run list.
 */
export async function openRemoteConsole(url: URL, key: string, folder = '.understudy'): Promise<ConsoleWiring> {
  const where = url.host.replace(/[^A-Za-z0-9.-]/g, '_');
  return {
    options: {
      client: createClient({ baseUrl: url.toString(), key }),
      controlAvailable: false,
      accountId: null,
      environment: environmentOfKey(key),
      service: { url: url.toString(), controlToken: null, isEmbedded: false },
      memory: ConsoleFile.open(join(folder, `remote-${where}.console.json`)),
      saveEvidence: folderSaver(join(folder, 'evidence')),
    },
    close: async () => undefined,
  };
}

/** Checks the flags now; the returned function builds the simulator and picks the console's key. */
function embeddedTarget(flags: Record<string, string | boolean>): () => Promise<ConsoleWiring> {
  if (typeof flags.key === 'string') throw new UsageError('--key is for --url; the embedded simulator makes its own key.');
  const option = (name: string) => String(flags[name] ?? SIMULATOR_FLAGS.find((s) => s.name === name)!.default);
  return () =>
    openEmbeddedConsole({ storePath: option('store'), seed: option('seed'), env: option('env') as Environment, clock: option('clock') as 'realtime' | 'frozen' });
}

export interface EmbeddedSettings {
  storePath: string;
  seed: string;
  env: Environment;
  clock: 'realtime' | 'frozen';
}

/**
 * The simulator inside the console, on a loopback port, with the keys the
 * console holds for its store (src/cli/console-file.ts) and its webhook
 * receiver: what `npm start` runs, and what the restart test starts twice.
 */
export async function openEmbeddedConsole(settings: EmbeddedSettings): Promise<ConsoleWiring> {
  const memory = ConsoleFile.open(consoleFilePath(settings.storePath));
  const built = await openInProcess({ storePath: settings.storePath, seed: settings.seed, env: settings.env, clock: settings.clock, limits: true });
  try {
    const baseUrl = await built.app.listen({ host: '127.0.0.1', port: 0 });
    built.sim.startRealtimeTicks();
    const saved = built.sim.created ? demoKeys(built) : await usableKeys(memory.keys(), baseUrl);
    const keys = saved.some((k) => k.profile === 'local_custody') ? saved : [...saved, await mintConsoleKey(createClient({ baseUrl }))];
    if (built.sim.created) memory.startOver(keys);
    else memory.setKeys(keys);
    const choices = ethFirst(keys).map((k): ConsoleKeyChoice => ({ ...k, client: createClient({ baseUrl, key: k.secret }) }));
    // The webhook inbox needs the control API (destinations are web-session only in production) and a simulator that can reach 127.0.0.1.
    const inbox = await startWebhookInbox(choices[0].client).catch(() => null);
    return {
      options: {
        client: choices[0].client,
        controlAvailable: true,
        accountId: choices[0].accountId,
        keys: choices,
        environment: settings.env,
        service: { url: baseUrl, controlToken: built.sim.controlToken, isEmbedded: true },
        memory,
        inbox,
        openScenario: openScenarioFile,
        saveEvidence: folderSaver(join(dirname(settings.storePath), 'evidence')),
      },
      async close() {
        await inbox?.close();
        await closeSimulator(built);
      },
    };
  } catch (error) {
    await built.close();
    throw error;
  }
}

/** The ETH key first: it is the one with monitor scopes (spec 4), so every screen works from the start. */
function ethFirst(keys: SavedKey[]): SavedKey[] {
  return [...keys.filter((k) => k.profile === 'local_custody'), ...keys.filter((k) => k.profile !== 'local_custody')];
}

/** The saved keys that still work: a reset store or a revoked or expired key drops out (spec 3.5). */
async function usableKeys(saved: SavedKey[], baseUrl: string): Promise<SavedKey[]> {
  const checked = await Promise.all(
    saved.map(async (k) => {
      try {
        const { status, id } = await createClient({ baseUrl, key: k.secret, retries: 0 }).v1.getKey();
        return status === 'active' && id === k.keyId ? k : null;
      } catch {
        return null;
      }
    }),
  );
  return checked.filter((k): k is SavedKey => k !== null);
}

/** Writes each evidence folder under `root`; the folder name comes from a run id, which a remote service chooses. */
function folderSaver(root: string): EvidenceSaver {
  return async (folder, files) => {
    const path = join(root, folder.replace(/[^A-Za-z0-9_-]/g, '_'));
    await mkdir(path, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(join(path, name.replace(/[^A-Za-z0-9_.-]/g, '_')), text);
    return path;
  };
}

/**
 * Closes the embedded simulator (flushing the store) without waiting on the
 * console's keep-alive connections: a request still in flight when the
 * console quits would otherwise hold the server open for its keep-alive
 * timeout (72 s in Fastify) before the process can exit.
 */
async function closeSimulator(built: InProcessSimulator): Promise<void> {
  const closing = built.close();
  built.app.server.closeAllConnections();
  await closing;
}

/** A new store: the demo data's keys, every one (their secrets exist only now: the store keeps hashes). */
function demoKeys(built: InProcessSimulator): SavedKey[] {
  return built.seedDemo().credentials.map((c) => ({ name: `demo ${c.profile}`, profile: c.profile, accountId: c.accountId, keyId: c.keyId, secret: c.secret }));
}

/**
 * On the first EVM account that still takes a key. Spec 8 caps an account at
 * 50 keys including revoked ones, so a long-used account may refuse (409);
 * the console then moves on, and as a last resort opens a new (unfunded) EVM
 * account.
 */
async function mintConsoleKey(control: Client): Promise<SavedKey> {
  const saved = (accountId: string, { key, secret }: Awaited<ReturnType<Client['sim']['createKey']>>): SavedKey => ({
    name: CONSOLE_KEY.name,
    profile: CONSOLE_KEY.profile,
    accountId,
    keyId: key.id,
    secret,
  });
  const accounts = (await control.sim.accounts()).filter((a) => a.type === 'evm');
  for (const account of accounts) {
    try {
      return saved(account.id, await control.sim.createKey(account.id, CONSOLE_KEY));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
  }
  const account = await control.sim.createAccount({ type: 'evm', label: 'Console account' });
  return saved(account.id, await control.sim.createKey(account.id, CONSOLE_KEY));
}
