import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/** Browsing the catalog by keystrokes against a real simulator. */

let h: ConsoleHarness;
afterEach(() => h?.close());

/** The agent rows of a catalog frame: the lines between the table header and the description line. */
function agentRows(frame: string): string[] {
  const lines = frame.split('\n');
  const header = lines.findIndex((l) => /^Agent\s+Chains/.test(l));
  return lines.slice(header + 1).filter((l) => /\s(yes|no)\s*$/.test(l));
}

async function openCatalog(): Promise<string> {
  h = await startConsole();
  await h.waitForFrame('Balances');
  h.press('2');
  return h.waitForFrame(/64 agents · page 1\/7/);
}

describe('catalog browser', () => {
  it('pages forward and back with cursors', async () => {
    const first = await openCatalog();
    const firstRows = agentRows(first);
    expect(firstRows).toHaveLength(10);
    h.press('n');
    const second = await h.waitForFrame('page 2/7');
    expect(agentRows(second)[0]).not.toBe(firstRows[0]);
    h.press('p');
    const back = await h.waitForFrame('page 1/7');
    expect(agentRows(back)).toEqual(firstRows);
  });

  it('filters by chain=solana through the filter editor', async () => {
    await openCatalog();
    const expected = await h.client.v1.listAgents({ chain: 'solana', limit: 1 });
    h.press('f');
    await h.waitForFrame('Filters');
    // chain is the first row; its values cycle any → ethereum → base → chainx → solana.
    h.press(KEYS.right, KEYS.right, KEYS.right, KEYS.right);
    await h.waitForFrame(/chain\s+solana/);
    h.press(KEYS.enter);
    const frame = await h.waitForFrame(`${expected.total} agents · page 1/`);
    expect(frame).toContain('chain=solana');
    const rows = agentRows(frame);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.includes('solana'))).toBe(true);
    if (expected.total > 10) {
      h.press('n');
      const next = await h.waitForFrame('page 2/');
      expect(agentRows(next).every((row) => row.includes('solana'))).toBe(true);
    }
  });

  it('cancels a filter edit with esc and clears filters with c', async () => {
    await openCatalog();
    h.press('f');
    await h.waitForFrame('Filters');
    h.press(KEYS.down, KEYS.right);
    await h.waitForFrame(/ownership\s+first-party/);
    h.press(KEYS.escape);
    const unchanged = await h.waitForFrame('no search or filters');
    expect(unchanged).toContain('64 agents');
    h.press('f');
    await h.waitForFrame('Filters');
    h.press(KEYS.down, KEYS.right, KEYS.enter);
    await h.waitForFrame('ownership=first-party');
    h.press('c');
    await h.waitForFrame((f) => f.includes('no search or filters') && f.includes('64 agents'));
  });

  it('searches by text and sorts by name', async () => {
    await openCatalog();
    h.press('/');
    await h.waitForFrame('search: █');
    h.press('N', 'F', 'T');
    await h.waitForFrame('search: NFT█');
    h.press(KEYS.enter);
    const found = await h.waitForFrame('"NFT"');
    expect(agentRows(found).length).toBeGreaterThan(0);
    expect(agentRows(found).some((row) => row.includes('NFT'))).toBe(true);
    h.press('c');
    await h.waitForFrame('no search or filters');
    h.press('s');
    const byName = await h.waitForFrame('sort name');
    const names = agentRows(byName).map((row) => row.split(/\s{2,}/)[0]);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('opens an agent detail and scrolls to its limitations', async () => {
    const frame = await openCatalog();
    const second = agentRows(frame)[1].split(/\s{2,}/)[0];
    h.press(KEYS.down);
    await h.waitForFrame((f) => agentRows(f)[1]?.startsWith(second) === true);
    h.press(KEYS.enter);
    const detail = await h.waitForFrame('Permissions');
    expect(detail).toContain(second);
    expect(detail).toContain('Offers (maximum debit per run)');
    h.press(' ', ' ', ' ');
    const end = await h.waitForFrame('Limitations');
    expect(end).toMatch(/lines \d+–(\d+) of \1/);
    h.press(KEYS.escape);
    await h.waitForFrame('page 1/7');
  });
});
