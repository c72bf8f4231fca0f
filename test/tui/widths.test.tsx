import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';
import { exactValueProblems, fitProblems, plain, wastedRowProblems } from './fit-checks.ts';

/**
 * Every screen and overlay, with real data in it, at 80, 100, 120 and 200
 * columns. What "fits" means, checked on every line of every frame:
 *
 * 1. Width: no line is wider than the terminal.
 * 2. Nothing torn: a line with box-drawing characters starts with a left
 *    border or corner and ends with its partner (a table or an overlay one
 *    column too wide wraps its right edge onto a line of its own).
 * 3. No label cut while there is room: a cut mark is a '…' right after a
 *    letter or digit and right before a blank, a border or the end of the
 *    line (abbreviated ids, "3f4ffd26…", are not cuts). A line with a cut
 *    mark fails when it also has room the label could have used: two or
 *    more blank columns at its end (to the terminal's edge), or a run of
 *    three or more blank columns anywhere after its first character (beside
 *    the cut, or a half-empty column of the same line).
 * 4. The tab bar names every screen whole.
 * 5. At 80×24, the frame fits the 24 rows: nothing scrolls off the top.
 * 6. No row wasted while content is scrolled off: a frame whose pane says
 *    "lines A–B of N" with lines outside A–B fills every row of the terminal.
 * 7. No exact value cut or split: a uuid, a 64-hex hash, an atomic amount
 *    (ten digits or more) or a path never ends in '…', and never runs from
 *    the end of one line onto the next when it would fit a line of its own
 *    (a path longer than a line may continue on the next).
 */

const SIZES = [
  { columns: 80, rows: 24 },
  { columns: 100, rows: 30 },
  { columns: 120, rows: 40 },
  { columns: 200, rows: 50 },
];

let h: ConsoleHarness;
afterEach(() => h?.close());

/** The frame once the console has redrawn at this size. */
async function frameAt(size: { columns: number; rows: number }, content: string | RegExp): Promise<string> {
  await h.resize(size);
  return h.waitForFrame(content);
}

/** The view at every size, then its help overlay at every size (none while text is typed: ? is then a character). */
async function checkEverySize(view: string, content: string | RegExp, problems: string[], hasHelp: boolean) {
  for (const withHelp of hasHelp ? [false, true] : [false]) {
    if (withHelp) h.press('?');
    for (const size of SIZES) {
      const frame = await frameAt(size, withHelp ? 'Keys (? or esc to close)' : content);
      const name = `${view}${withHelp ? ' + help' : ''} at ${size.columns}×${size.rows}`;
      problems.push(...[...fitProblems(frame, size.columns), ...exactValueProblems(frame, size.columns), ...wastedRowProblems(frame, size.rows)].map((p) => `${name}: ${p}`));
      const height = plain(frame).split('\n').length;
      if (size.columns === 80 && height > size.rows) problems.push(`${name}: ${height} rows, taller than ${size.rows}`);
    }
    if (withHelp) {
      h.press(KEYS.escape);
      await h.waitForFrame((f) => !f.includes('Keys (? or esc to close)'));
    }
  }
}

describe('every screen at 80 to 200 columns', () => {
  it('fits each screen and overlay, with real data, at 80, 100, 120 and 200 columns', async () => {
    // A saved evidence folder as long as a store's usually is: the notice names it whole.
    const saveEvidence = async (folder: string) => `/home/support/tickets/a-long-store-name/evidence/${folder}`;
    h = await startConsole({ inbox: true, scenarios: true, store: { saveEvidence } });
    const problems: string[] = [];
    // A refused read sent again unchanged: the conduct report has a failure, with its evidence.
    for (let i = 0; i < 2; i += 1) await h.client.v1.getRun('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    const visit = async (view: string, keys: string[], content: string | RegExp, hasHelp = true) => {
      await h.resize({ columns: 100, rows: 30 });
      h.press(...keys);
      await h.waitForFrame(content);
      await checkEverySize(view, content, problems, hasHelp);
    };

    await h.waitForFrame('Balances');
    await visit('key', [], 'Balances');
    await visit('catalog', ['2'], '64 agents · page 1/7');
    await visit('search box', ['/'], 'search: ', false);
    h.press(KEYS.escape);
    await h.waitForFrame((f) => !f.includes('search: '));
    await visit('filters', ['f'], 'Filters');
    h.press(KEYS.escape);
    await h.waitForFrame('64 agents · page 1/7');
    await visit('agent', ['d'], 'Offers (maximum debit per run)');
    await visit('quote', ['q'], 'expires in 4:00');
    await visit('quote form', ['e'], 'Quote builder');
    await visit('quote form prompt', [KEYS.down, KEYS.enter], /█/, false);
    h.press(KEYS.escape);
    await h.waitForFrame((f) => !f.includes('█'));
    await visit('quote again', ['q'], 'expires in 4:00');
    await visit('accept confirmation', ['a'], 'acceptedContractHash');
    await visit('run, queued', ['y'], /Run [0-9a-f]{8}… Token Research Agent/);
    await visit('run, settled', ['+', '+'], 'succeeded · terminal');
    await visit('billing', ['b'], 'Status            settled');
    await visit('receipt', ['i'], 'Paid in');
    await visit('export', ['e'], 'bytes of canonical JSON');
    await visit('money explanation', ['m'], /quote maximum: 0\.00816 ETH/);
    await visit('evidence saved', ['w'], /saved summary\.md and \d answers to/);
    await visit('runs', [KEYS.escape], /Runs 1 ·/);
    await visit('ledger after settlement', ['4'], / release /);
    h.press('5');
    await h.waitForFrame('No monitors: press n');
    await visit('monitors', ['n'], /Console demo: token transfe.*active/);
    h.press('7');
    await h.waitForFrame('destination none yet');
    await visit('inbox', ['c'], '✔ destination verified; subscribed 1 monitor');
    h.press('5');
    await h.waitForFrame(/Console demo: token transfe.*active/);
    h.press('m');
    await h.waitForFrame('✔ mined block');
    h.press('.');
    await h.waitForFrame('2026-01-01 00:02:01Z');
    await visit('monitor detail', [KEYS.enter], 'Deliveries (1)');
    await visit('notifications', ['6'], 'Rule transfers (erc20-transfer) matched Transfer');
    await visit('inbox with a delivery', ['7'], /monitor\.event\s+[0-9a-f]{8}…\s+verified/);
    await visit('request log', ['8'], 'requests, newest first');
    await visit('conduct report', ['g'], /Conduct report score \d+/);
    h.press('8');
    await h.waitForFrame('requests, newest first');
    await visit('faults', ['9'], 'research provider unavailable');
    h.press('0');
    await h.waitForFrame('Press o to open');
    await visit('scenario picker', ['o'], 'Open a scenario', false);
    await visit('scenario prompt', ['t'], 'Scenario file:', false);
    h.press(KEYS.enter);
    await h.waitForFrame('0/8 steps');
    h.press('n');
    await h.waitForFrame('1/8 steps');
    await visit('scenario', ['n'], '2/8 steps');

    expect(problems).toEqual([]);
  });

  it('names every screen whole in the tab bar, and fits the Key screen, at every width from 80 to 200', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    const problems: string[] = [];
    for (let columns = 80; columns <= 200; columns += 1) {
      const frame = await frameAt({ columns, rows: 24 }, 'Balances');
      problems.push(...fitProblems(frame, columns).map((p) => `${columns} columns: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('shows the Key screen whole at 80×24: the key, its spend and every balance, with amounts too long for a table', async () => {
    h = await startConsole({ size: { columns: 80, rows: 24 } });
    await h.waitForFrame('Balances');
    // An 18-decimal remainder (what a settlement leaves) is the widest an amount gets.
    await h.client.sim.deposit(h.store.getState().accountId!, { profile: 'local_custody', amountAtomic: '123456789012345678' });
    h.press('r');
    const frame = await h.waitForFrame('2.1234567890123');
    expect(fitProblems(frame, 80)).toEqual([]);
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    for (const part of ['Key demo local_custody', 'Spend', 'Remaining', 'Balances', 'local_custody', 'sim', '1,000 SIM', 'deposited 2.123456789012345678 ETH']) expect(frame).toContain(part);
  });

  it('writes every key of the help overlay whole at 80 columns, the reconciliation keys c and u among them', async () => {
    h = await startConsole({ size: { columns: 80, rows: 24 } });
    await h.waitForFrame('Balances');
    h.press('3');
    await h.waitForFrame('No runs yet');
    h.press('?');
    const help = await h.waitForFrame('Keys (? or esc to close)');
    expect(fitProblems(help, 80)).toEqual([]);
    expect(help).toMatch(/c +reads confirmed/);
    expect(help).toMatch(/u +reads not confirmed/);
    expect(help.split('\n').length).toBeLessThanOrEqual(24);
  });
});
