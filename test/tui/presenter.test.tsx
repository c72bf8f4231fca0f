import { formatProfileAmount } from '../../src/tui/amount.ts';
import { exactValueProblems, fitProblems } from './fit-checks.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.ts';
import { playOptions } from '../../src/cli/play.ts';
import { TUI_FLAGS } from '../../src/cli/tui.ts';
import type { Pacer } from '../../src/tui/state/options.ts';
import { startConsole, type ConsoleHarness } from './console-harness.tsx';

/**
 * Presenter mode (`npm start -- --play FILE --pace S`): the scenario plays
 * itself one step per pace with a caption, and space pauses. The pace is
 * a timer the test drives by hand, so nothing here waits on wall time.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

/** A pacer whose scheduled step runs when the test says so. */
function handPacer() {
  let pending: { ms: number; step: () => void } | null = null;
  const pacer: Pacer = (ms, step) => {
    const entry = { ms, step };
    pending = entry;
    return () => {
      if (pending === entry) pending = null;
    };
  };
  return {
    pacer,
    pending: () => pending,
    tick() {
      const due = pending;
      if (!due) throw new Error('no step is scheduled');
      pending = null;
      due.step();
    },
  };
}

const FILE = 'fixtures/scenarios/01-complete-report-charged.json';

describe('presenter mode', () => {
  it('plays the scenario a step per pace, with its captions and the balances that moved; space pauses and resumes', async () => {
    const pace = handPacer();
    h = await startConsole({ scenarios: true, store: { play: { file: FILE, paceMs: 3000 }, pacer: pace.pacer } });
    const opened = await h.waitForFrame('complete-report-charged · 0/8 steps');
    expect(opened).toContain('Presenting: the first step runs shortly (space pauses).');
    expect(opened).toMatch(/space pause\/resume\s+n next step now/);
    expect(pace.pending()?.ms).toBe(3000);

    pace.tick();
    const first = await h.waitForFrame('▶ Step 1/8: quote the token research agent');
    expect(first).toContain('Request   POST /v1/custody/quotes (key eth)');
    expect(first).toContain('next in 3 s · space pauses');
    await h.waitForFrame(() => pace.pending() !== null);

    pace.tick();
    const second = await h.waitForFrame('▶ Step 2/8: accept it');
    expect(second).toContain('acme local_custody: available −0.00816 ETH, reserved +0.00816 ETH');
    await h.waitForFrame(() => pace.pending() !== null);

    h.press(' ');
    await h.waitForFrame('paused · space resumes');
    expect(pace.pending()).toBeNull();
    h.press(' ');
    await h.waitForFrame('next in 3 s · space pauses');
    expect(pace.pending()?.ms).toBe(3000);

    // Unnamed steps are captioned by what they do.
    pace.tick();
    await h.waitForFrame('▶ Step 3/8: check balance');
    pace.tick();
    await h.waitForFrame('▶ Step 4/8: let the run finish');
    pace.tick();
    await h.waitForFrame('▶ Step 5/8: GET /v1/runs/');
    for (let step = 6; step <= 8; step += 1) {
      await h.waitForFrame(() => pace.pending() !== null);
      pace.tick();
      await h.waitForFrame(`▶ Step ${step}/8`);
    }
    const end = await h.waitForFrame('8/8 steps · all as expected · done');
    expect(end).toContain('the end');
    expect(pace.pending()).toBeNull();

    // The last frame, at 80×24, shows what the scenario charged: units and the exact atomic string, whole.
    await h.resize({ columns: 80, rows: 24 });
    const last = h.store.getState().scenario.steps.at(-1)!;
    const charged = last.balances.flatMap((a) => a.balances.filter((b) => BigInt(b.chargedAtomic) > 0n).map((b) => ({ account: a.name, ...b })));
    expect(charged.length).toBeGreaterThan(0);
    const final = await h.waitForFrame((f) => f.includes('the end') && f.split('\n').length <= 24);
    for (const b of charged) expect(final).toContain(`${b.account} ${b.profile}: charged ${formatProfileAmount(b.chargedAtomic, b.profile)} (${b.chargedAtomic} atomic)`);
    expect(exactValueProblems(final, 80)).toEqual([]);
    expect(fitProblems(final, 80)).toEqual([]);
  });
});

describe('--play and --pace', () => {
  it('are console flags', () => {
    expect(TUI_FLAGS.map((f) => f.name)).toEqual(expect.arrayContaining(['play', 'pace']));
  });

  it('default to a 4 s pace and take fractions of a second', () => {
    expect(playOptions({})).toBeNull();
    expect(playOptions({ play: FILE })).toEqual({ file: FILE, paceMs: 4000 });
    expect(playOptions({ play: FILE, pace: '1.5' })).toEqual({ file: FILE, paceMs: 1500 });
  });

  it('refuse a bad pace, a pace without --play, and --play with --url, naming the flag', () => {
    for (const pace of ['abc', '0', '-1', '1e3', '601', '']) expect(() => playOptions({ play: FILE, pace })).toThrow(/--pace must be a number of seconds/);
    expect(() => playOptions({ pace: '3' })).toThrow(UsageError);
    expect(() => playOptions({ play: FILE, url: 'http://127.0.0.1:4010' })).toThrow(/--url/);
  });
});
