import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client, type SimAdvanced, type SimApi, type V1Api } from '../client/index.ts';
import { demoAccounts, demoKeys, type DemoAccounts, type DemoKeys } from './demo.ts';
import { openInProcess, type InProcessSimulator, type SimulatorSnapshot } from './in-process.ts';
import { throwawayStoreFs } from './throwaway-fs.ts';
import type { UnderstudyOptions } from './options.ts';

/** The simulated clock, driven through the control API as a test would. */
export interface UnderstudyClock {
  /** The simulated present, as ISO text. */
  now(): string;
  /** Moves the clock `seconds` forward, running everything that falls due on the way. */
  advance(seconds: number): Promise<SimAdvanced>;
  /** Moves the clock to an instant (never backwards). */
  to(iso: string): Promise<SimAdvanced>;
  /** Moves the clock to the next instant at which something is due. */
  next(): Promise<SimAdvanced>;
}

/** A simulator running in this process, with its demo data and typed clients. */
export interface Understudy {
  /** The base address (http://127.0.0.1:PORT); /v1 and /sim routes hang off it. */
  url: string;
  /** Where the control API lives (url + '/sim'). */
  controlUrl: string;
  /** The store file: options.store, or the temporary one stop() removes. */
  storePath: string;
  accounts: DemoAccounts;
  keys: DemoKeys;
  clock: UnderstudyClock;
  /** The typed /sim client (carries the control token when one was set). */
  control: SimApi;
  /** The typed /v1 client, holding the demo key of `options.profile` (local_custody by default). */
  v1: V1Api;
  /** A whole client (v1, sim, waitForRun) holding `key` (another demo key, or one a test created). */
  client(key?: string): Client;
  /**
   * Back to the state right after start: the same demo accounts, the same keys, the same
   * instant; the conduct report starts over and the fault stream from its start (as POST /sim/reset).
   */
  reset(): Promise<void>;
  /** GET /sim/report: how the client behaved since the last reset (docs/drill.md); one key's, or every key's. */
  report(keyId?: string): ReturnType<SimApi['report']>;
  /** Stops the server and the store; a temporary store is removed. */
  stop(): Promise<void>;
}

/**
 * Starts a simulator in the calling process on a free port, seeds the demo
 * accounts and keys, and remembers that state so reset() can return to it.
 *
 *   const understudy = await startUnderstudy();
 *   const quote = await understudy.v1.createQuote({ ... });
 *   await understudy.reset();
 *   await understudy.stop();
 */
export async function startUnderstudy(options: UnderstudyOptions = {}): Promise<Understudy> {
  const host = options.host ?? '127.0.0.1';
  const ownDir = options.store === undefined ? await mkdtemp(join(tmpdir(), 'understudy-')) : null;
  const storePath = options.store ?? join(ownDir!, 'store.json');
  let built: InProcessSimulator;
  try {
    built = await openInProcess({
      storePath,
      seed: options.seed ?? 1,
      env: options.env ?? 'test',
      clock: options.clock ?? 'frozen',
      webhookTime: options.webhookTime ?? 'wall',
      limits: options.limits ?? true,
      controlToken: options.controlToken ?? null,
      chaos: options.chaos,
      ...(ownDir ? { storeFs: throwawayStoreFs } : {}),
    });
  } catch (error) {
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
    throw error;
  }
  const { sim } = built;
  try {
    if (!sim.created) throw new Error(`understudy: ${storePath} already holds a store; startUnderstudy starts from a new one (its demo keys exist only when it is created)`);
    const { credentials } = built.seedDemo();
    // The starting state, as a snapshot export would hand it out: reset() imports it again.
    // Parsed once and frozen through: the store keeps the rows it is given and never changes
    // a row in place (a change is a new row), so every reset can hand it the same ones.
    // Measured 2026-11-28 (quiet 2-core machine): parsing the 225 KB document was 1.3 of
    // reset()'s 1.6 ms, a ninth of a test in the bench's user suite.
    const start = frozenThrough(JSON.parse(Buffer.concat(sim.exportSnapshot()).toString('utf8')) as SimulatorSnapshot);
    const address = await built.app.listen({ host, port: options.port ?? 0 });
    sim.startRealtimeTicks();
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${new URL(address).port}`;
    const keys = demoKeys(credentials);
    const client = (key?: string) => createClient({ baseUrl: url, key, controlToken: options.controlToken });
    const profile = options.profile ?? 'local_custody';
    const key = keys[profile];
    if (!key) throw new Error(`understudy: no demo key for ${profile} in env ${options.env}`);
    const control = client().sim;
    let stopped = false;
    return {
      url,
      controlUrl: `${url}/sim`,
      storePath,
      accounts: demoAccounts(credentials),
      keys,
      clock: {
        now: () => sim.deps.clock.nowIso(),
        advance: (seconds) => control.advance({ seconds }),
        to: (iso) => control.advance({ to: iso }),
        next: () => control.advance({ next: true }),
      },
      control,
      v1: client(key).v1,
      client,
      async reset() {
        // After stop() the store is closed: refused before anything is touched, so nothing is left open.
        if (stopped) throw new Error('understudy: reset() after stop(): this simulator has stopped; start a new one with startUnderstudy().');
        await sim.importSnapshot(start, { ownExport: true });
        built.drill.startOver();
      },
      report: (keyId) => control.report(keyId),
      async stop() {
        if (stopped) return;
        stopped = true;
        const closing = built.close();
        // Keep-alive connections of the test's clients would hold the server open.
        built.app.server.closeAllConnections();
        await closing;
        if (ownDir) await rm(ownDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await built.close();
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
    throw error;
  }
}

/** `value` with every object and array in it frozen: a write to any part of it throws. */
function frozenThrough<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const part of Object.values(value)) frozenThrough(part);
    Object.freeze(value);
  }
  return value;
}
