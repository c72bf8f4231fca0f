import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleFilePath } from '../../src/cli/console-file.ts';
import { openRemoteConsole } from '../../src/cli/tui.ts';
import { createClient } from '../../src/client/index.ts';
import { App } from '../../src/tui/app.tsx';
import { createConsoleStore } from '../../src/tui/state/store.ts';
import { render } from 'ink-testing-library';
import { listen, startSimulator } from '../helpers/simulator.ts';
import { KEYS } from './console-harness.tsx';
import { startWiredConsole, temporaryFolder, type WiredConsole } from './wired-console.tsx';
import { acceptDemoQuote } from '../helpers/frames.ts';

/**
 * Quitting the console and starting it again on the same store continues the
 * same demo: the same keys (their secrets kept beside the store), the inbox
 * pointed at the new session's receiver, the runs a key accepted still listed.
 */

const settings = (storePath: string) => ({ storePath, seed: '1', env: 'test' as const, clock: 'frozen' as const });
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(storePath: string): Promise<WiredConsole> {
  const console = await startWiredConsole(settings(storePath));
  cleanups.push(() => console.quit());
  return console;
}

async function quoteAndAccept(c: WiredConsole): Promise<string> {
  await acceptDemoQuote(c);
  return c.store.getState().run.runId!;
}

describe('restarting the console', () => {
  it('re-points the inbox: a monitor event after a restart reaches the new session’s receiver', async () => {
    const folder = await temporaryFolder();
    cleanups.push(folder.remove);

    const first = await start(folder.storePath);
    await first.waitForFrame('Balances');
    first.press('5');
    await first.waitForFrame('No monitors: press n');
    first.press('n');
    await first.waitForFrame(/Console demo: token transfe.*active/);
    first.press('7');
    await first.waitForFrame('destination none yet');
    first.press('c');
    await first.waitForFrame('✔ destination verified; subscribed 1 monitor');
    const oldDestination = first.store.getState().inbox.destination!.id;
    const oldUrl = first.store.getState().inbox.url;
    await first.quit();

    const second = await start(folder.storePath);
    await second.waitForFrame("inbox re-pointed to this session's receiver: destination verified; subscribed 1 monitor");
    expect(second.store.getState().inbox.url).not.toBe(oldUrl);
    const control = createClient({ baseUrl: second.wiring.options.service!.url });
    // Spec 3.8: the old destination, pointing at a port nobody listens on, is revoked with its subscriptions.
    expect((await control.sim.destination(oldDestination)).state).toBe('revoked');

    second.press('5');
    await second.waitForFrame(/Console demo: token transfe.*active/);
    second.press('m');
    await second.waitForFrame('✔ mined block');
    second.press('.');
    second.press('7');
    const inbox = await second.waitForFrame(/monitor\.event\s+[0-9a-f]{8}…\s+verified\s+200\s+first/);
    expect(inbox).toMatch(/destination\s+\S*\s*verified/);
    const attempts = (await control.sim.deliveryLog()).attempts as Array<Record<string, unknown>>;
    expect(attempts.some((a) => /ECONNREFUSED/.test(JSON.stringify(a)))).toBe(false);
  });

  it('keeps using the same key, so the previous session’s spend and runs stay in view', async () => {
    const folder = await temporaryFolder();
    cleanups.push(folder.remove);

    const first = await start(folder.storePath);
    await first.waitForFrame('Balances');
    const runId = await quoteAndAccept(first);
    const keyBefore = first.store.getState().key!;
    expect(keyBefore.name).toBe('demo local_custody');
    await first.quit();

    const second = await start(folder.storePath);
    const home = await second.waitForFrame('Balances');
    const key = second.store.getState().key!;
    expect(key.id).toBe(keyBefore.id);
    expect(home).toContain('demo local_custody');
    expect(home).not.toMatch(/Key console/);
    // The reservation of the first session is the key's committed spend (spec 2.3).
    expect(BigInt(key.spendUsedAtomic)).toBeGreaterThan(0n);
    second.press('3');
    await second.waitForFrame(new RegExp(`${runId.slice(0, 8)}…\\s+queued`));
  });

  it('shows every demo secret and switches between the demo keys with k, Solana and USDC included', async () => {
    const folder = await temporaryFolder();
    cleanups.push(folder.remove);
    const c = await start(folder.storePath);
    const saved = JSON.parse(await readFile(consoleFilePath(folder.storePath), 'utf8')) as { keys: Array<{ profile: string; secret: string }> };
    expect(saved.keys.map((k) => k.profile).sort()).toEqual(['local_custody', 'sim', 'solana_sol', 'solana_usdc']);
    const secretOf = (profile: string) => saved.keys.find((k) => k.profile === profile)!.secret;

    const eth = await c.waitForFrame('Balances');
    expect(eth).toContain(secretOf('local_custody'));
    expect(eth).toMatch(/Keys\s+1 of 4/);
    const seen = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      c.press('k');
      const profile = c.store.getState().keys[c.store.getState().keyIndex].profile;
      seen.add(profile);
      // The key in use is the one the service answers for (GET /v1/buyer/key), with its own account's balances.
      const frame = await c.waitForFrame(new RegExp(`Asset\\s+${profile}[\\s\\S]*Keys\\s+${i + 2} of 4[\\s\\S]*Balances · Demo ${profile.startsWith('solana') ? 'Solana' : 'EVM'} account`));
      expect(frame).toContain(secretOf(profile));
    }
    expect([...seen].sort()).toEqual(['sim', 'solana_sol', 'solana_usdc']);
    c.press('k');
    await c.waitForFrame(/Asset\s+local_custody[\s\S]*Keys\s+1 of 4/);

    // The Solana rail, from the console: the demo agent quoted with the SOL key.
    c.press('k');
    await c.waitForFrame(/Asset\s+solana_sol[\s\S]*Balances · Demo Solana account/);
    c.press('d');
    await c.waitForFrame('Permissions');
    c.press('q');
    await c.waitForFrame('POST /v1/solana-custody/quotes');
  });

  it('lists the runs a key accepted in --url mode after a restart, from the console’s own memory', async () => {
    const folder = await temporaryFolder();
    cleanups.push(folder.remove);
    const sim = await startSimulator({ clock: 'frozen' });
    cleanups.push(async () => {
      const destroying = sim.destroy();
      sim.app.server.closeAllConnections();
      await destroying;
    });
    const url = new URL(await listen(sim.app));
    const key = sim.secret('local_custody');

    const session = async () => {
      const wiring = await openRemoteConsole(url, key, folder.dir);
      const store = createConsoleStore({ ...wiring.options, newIdempotencyKey: () => 'remote-restart-1' });
      const view = render(<App store={store} isInteractive clockRefreshMs={60_000} />);
      const waitFor = async (expected: RegExp | string) => {
        for (const deadline = Date.now() + 8000; ; ) {
          const frame = view.lastFrame() ?? '';
          if (typeof expected === 'string' ? frame.includes(expected) : expected.test(frame)) return frame;
          if (Date.now() > deadline) throw new Error(`No frame matched ${String(expected)}. Last frame:\n${frame}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      const press = (...keys: string[]) => keys.forEach((k) => view.stdin.write(k));
      return { store, waitFor, press, quit: () => view.unmount() };
    };

    const first = await session();
    await first.waitFor('remote service');
    first.press('d');
    await first.waitFor('Permissions');
    first.press('q');
    await first.waitFor('Quote · Token Research Agent');
    first.press('a');
    await first.waitFor('acceptedContractHash');
    first.press('y');
    await first.waitFor(/Run [0-9a-f]{8}… Token Research Agent/);
    const runId = first.store.getState().run.runId!;
    first.quit();

    // Settled while the console was away.
    await createClient({ baseUrl: url.toString() }).sim.advance({ seconds: 300 });

    const second = await session();
    await second.waitFor('remote service');
    second.press('3');
    const list = await second.waitFor(new RegExp(`${runId.slice(0, 8)}…`));
    expect(list).not.toContain('No runs yet');
    expect(list).toContain('accepted through this key, kept across sessions (spec 4: no run list)');
    expect(list).toContain('Token Research Agent');
    second.press(KEYS.enter);
    await second.waitFor('succeeded · terminal');
    second.quit();
  });
});
