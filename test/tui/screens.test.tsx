import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/** Every screen renders against a real simulator, by its number key; control screens, faults and scenario stepping. */

let h: ConsoleHarness;
afterEach(() => h?.close());

describe('screens', () => {
  it('switches to every screen by number key, each in the tab bar, with its keys in the hint bar', async () => {
    h = await startConsole({ inbox: true, scenarios: true });
    await h.waitForFrame('Balances');
    const expectations: Array<[string, string, string]> = [
      ['2', '[2Catalog]', 'd demo agent'],
      ['3', '[3Runs]', 'No runs yet'],
      ['4', '[4Ledger]', 'postings, newest first'],
      ['5', '[5Monitors]', 'No monitors: press n'],
      ['6', '[6Notices]', 'No notifications'],
      ['7', '[7Inbox]', 'destination none yet'],
      ['8', '[8Log]', 'requests, newest first'],
      ['9', '[9Faults]', 'research provider unavailable'],
      ['0', '[0Scenario]', 'Press o to open a scenario file'],
      ['1', '[1Key]', 'Balances'],
    ];
    for (const [key, tab, content] of expectations) {
      h.press(key);
      const frame = await h.waitForFrame((f) => f.includes(tab) && f.includes(content));
      // The clock bar is always there, with its advance keys.
      expect(frame).toContain('2026-01-01 00:00:00Z frozen');
      expect(frame).toMatch(/\. \+1s\s+: \+10s\s+\+ \+1m\s+> next event/);
      expect(frame).toContain('? help');
    }
  });

  it('shows the request log of what the console asked', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    h.press('2');
    await h.waitForFrame('64 agents');
    h.press('8');
    const log = await h.waitForFrame('requests, newest first');
    expect(log).toMatch(/00:00:00 GET\s+200\s+\/v1\/public\/agents\n/);
    expect(log).toMatch(/GET\s+200\s+\/v1\/buyer\/key/);
  });

  it('toggles a payment fault and explains the refused acceptance (503)', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    h.press('9');
    await h.waitForFrame('› ');
    h.press(KEYS.down, ' ');
    await h.waitForFrame('✔ payments in local_custody: fault ON');
    expect((await h.client.sim.faults()).paymentsDisabled).toEqual(['local_custody']);
    h.press('2');
    await h.waitForFrame('64 agents');
    h.press('d');
    await h.waitForFrame((f) => f.includes('Token Research Agent') && f.includes('esc back'));
    h.press('q');
    await h.waitForFrame('expires in 4:00');
    h.press('a');
    await h.waitForFrame('acceptedContractHash');
    h.press(KEYS.enter);
    const refused = await h.waitForFrame(/Acceptance refused: \S+ \(503\)/);
    expect(refused).toContain('→ A payment rail, the research provider or export storage is unavailable');
    // Nothing was reserved (spec 4.5).
    h.press('4');
    await h.waitForFrame(/reserved\s+░+ 0 ETH/);
    h.press('9');
    await h.waitForFrame(/›\s+ON\s+payments disabled: sim|ON\s+payments disabled: local_custody/);
    h.press(' ');
    await h.waitForFrame('✔ payments in local_custody: fault off');
  });

  it('steps a scenario file on a fresh simulator, showing each request, answer and the balances after it', async () => {
    h = await startConsole({ scenarios: true });
    await h.waitForFrame('Balances');
    h.press('0');
    await h.waitForFrame('Press o to open');
    h.press('o');
    await h.waitForFrame('Open a scenario');
    h.press('t');
    await h.waitForFrame('Scenario file: fixtures/scenarios/01-complete-report-charged.json█');
    h.press(KEYS.enter);
    await h.waitForFrame('complete-report-charged · 0/8 steps');
    h.press('n');
    const first = await h.waitForFrame('1/8 steps');
    expect(first).toMatch(/✓\s+1 call\s+201 quote the token research agent/);
    expect(first).toContain('Request   POST /v1/custody/quotes (key eth)');
    expect(first).toContain('Answer    201');
    expect(first).toContain('Balances after the step');
    expect(first).toMatch(/acme local_custody: avail 1 ETH · resv 0 ETH/);
    h.press('n');
    const second = await h.waitForFrame('2/8 steps');
    expect(second).toMatch(/acme local_custody: avail 0\.99184 ETH · resv 0\.00816 ETH/);
    h.press('a');
    const done = await h.waitForFrame('8/8 steps · all as expected · done');
    expect(done).toContain('✓');
    // The console's own simulator was not touched.
    expect((await h.client.v1.getKey()).spendUsedAtomic).toBe('0');
    h.press('x');
    await h.waitForFrame('Press o to open');
  });

  it('names a missing scenario file instead of crashing', async () => {
    h = await startConsole({ scenarios: true });
    await h.waitForFrame('Balances');
    h.press('0');
    await h.waitForFrame('Press o to open');
    h.press('o');
    await h.waitForFrame('Open a scenario');
    h.press('t');
    await h.waitForFrame('Scenario file:');
    for (let i = 0; i < 'complete-report-charged.json'.length; i += 1) h.press(KEYS.backspace);
    h.press('nope.json', KEYS.enter);
    await h.waitForFrame(/✖ console_error: fixtures\/scenarios\/01-nope\.json: \(file\) cannot be read/);
  });

  it('on a realtime clock, rereads the screen in view as the clock moves: a deposit made elsewhere appears without a key', async () => {
    h = await startConsole({ clock: 'realtime', clockRefreshMs: 100, realtimeRereadMs: 300 });
    await h.waitForFrame('Balances');
    h.press('4');
    const before = await h.waitForFrame('postings, newest first');
    expect(before).toContain('deposited 2 ETH');
    expect(before).toContain('History 2 postings');
    const accountId = h.store.getState().accountId!;
    await h.client.sim.deposit(accountId, { profile: 'local_custody', amountAtomic: (125n * 10n ** 17n).toString() });
    // Balances and history are two reads: the frame that shows both.
    const after = await h.waitForFrame((f) => f.includes('deposited 14.5 ETH') && f.includes('History 3 postings'), 5_000);
    expect(after).toMatch(/local_custody deposit\s+12\.5 ETH/);
  });

  it('on a realtime clock, rereads with the key at most every 10 s by default (its budget is 60 requests a minute)', async () => {
    h = await startConsole({ clock: 'realtime', clockRefreshMs: 50 });
    await h.waitForFrame('Balances');
    // Twenty clock ticks on the key screen (each a read of the clock, stored), whose reread asks GET /v1/buyer/key.
    await new Promise<void>((resolve) => {
      let ticks = 0;
      const stop = h!.store.subscribe((state, previous) => {
        if (state.clock !== previous.clock && ++ticks === 20) {
          stop();
          resolve();
        }
      });
    });
    const asked = (await h.client.sim.requests()).filter((r) => r.method === 'GET' && r.route === '/v1/buyer/key');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.length).toBeLessThanOrEqual(2);
  });

  it('shows help for the screen in use, within 24 rows', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    h.press('3');
    await h.waitForFrame('No runs yet');
    h.press('?');
    const help = await h.waitForFrame('Keys (? or esc to close)');
    expect(help).toContain('Runs');
    expect(help).toContain('cancel run');
    expect(help).toContain('next event');
    expect(help).toContain('The clock mode is fixed at start (--clock)');
    expect(help.split('\n').length).toBeLessThanOrEqual(24);
    h.press(KEYS.escape);
    await h.waitForFrame('No runs yet');
  });

  it('hides the control screens against a remote service', async () => {
    h = await startConsole({ controlAvailable: false });
    await h.waitForFrame('demo local_custody');
    h.press('4');
    await h.waitForFrame('The ledger comes from the control API, which is hidden against a remote service.');
    h.press('7');
    await h.waitForFrame('No webhook inbox');
    h.press('9');
    await h.waitForFrame('Faults are set through the control API');
    h.press('5');
    await h.waitForFrame('No monitors');
    expect(h.lastFrame()).not.toContain('m mine match');
  });
});
