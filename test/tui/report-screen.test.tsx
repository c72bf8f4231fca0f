import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/** The Report screen (g on the Request log): GET /sim/report for the key in use (docs/drill.md). */

let h: ConsoleHarness;
afterEach(() => h?.close());

describe('conduct report screen', () => {
  it('grades the key in use, one row per rule, with the evidence of a failure', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    // The same refused read twice, unchanged: part 7 says not to.
    const missing = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 2; i += 1) await h.client.v1.getRun(missing).catch(() => undefined);
    h.press('8');
    await h.waitForFrame((f) => f.includes('requests, newest first') && f.includes('g graded conduct report'));
    h.press('g');
    const frame = await h.waitForFrame((f) => f.includes('Conduct report') && f.includes('FAIL'));
    // The verdicts: a static table (ink-table), one row per rule.
    expect(frame).toMatch(/│ verdict │ rule +│ spec +│/);
    expect(frame).toMatch(/│ FAIL +│ refusals-not-repeated +│ part 7 +│/);
    // Two reads came nowhere near the key's limit, and no run was polled: neither rule was exercised.
    expect(h.store.getState().report.report?.rules.find((r) => r.id === 'within-rate-limit')?.verdict).toBe('not-exercised');
    expect(frame).toMatch(/│ - +│ polling-backs-off +│ 4\.6 +│/);
    // Under it, each failure's title and what decided it: the table and these lines scroll as one pane (24 rows hold the table alone).
    h.press(KEYS.pageDown, KEYS.pageDown);
    const end = await h.waitForFrame(/lines \d+–(\d+) of \1 ·/);
    expect(end).toMatch(/│ - +│ within-rate-limit +│ part 8 +│/);
    expect(end).toMatch(/FAIL\s+Refused requests \(400, 401, 403, 404, 409\) are not sent again unchanged \(part 7\)/);
    expect(end).toContain('GET /v1/runs/:id → 404, then the same request unchanged');
    expect(frame).toMatch(/score 0/);
  });
});
