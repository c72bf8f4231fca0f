import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyStore, filesOf, openStore, removeTempDirs, stateOf, tempDir } from './support.ts';

/**
 * Issue 14.3: random damage to a store's files (bit flips, truncations,
 * deletions, lines swapped or repeated in the journal and the archive; the
 * record of the last acknowledged change too) either
 * is refused, naming one of the store's files and changing none, or opens with
 * every acknowledged write intact. A journal cut inside its entries looks like
 * what a crash leaves (the cut line like a torn, never acknowledged tail); the
 * record of the last acknowledged change tells the two apart, so it is refused.
 */

type State = ReturnType<typeof stateOf>;
interface Pristine {
  /** The store's files as a crash right after the last acknowledged write leaves them (entries in the journal). */
  crashed: string;
  /** The same store after a clean stop (everything in the snapshot and the archive). */
  stopped: string;
  /** The state after each acknowledged journal entry: [0] before the first. */
  states: State[];
}

let pristine: Pristine;

async function buildPristine(): Promise<Pristine> {
  const path = join(await tempDir(), 's.json');
  const store = await openStore(path);
  store.transact((tx) => {
    for (let i = 0; i < 12; i += 1) {
      tx.put('cold', { id: `c${i}`, n: i, text: 'é🚀'.repeat(i % 3) });
      tx.put('ledger', { id: `l${i}`, n: i, owner: `a${i % 3}` });
      tx.put('hot', { id: `h${i % 4}`, n: i });
    }
    tx.setMeta('m', 1);
  });
  await store.checkpoint();
  // A second checkpoint appends to the archive: a row written again, a delete (tombstone), a row moving group.
  store.transact((tx) => {
    tx.put('cold', { id: 'c3', n: 300 });
    tx.delete('cold', 'c5');
    tx.put('ledger', { id: 'l4', n: 40, owner: 'a2' });
  });
  await store.checkpoint();
  const states = [stateOf(store)];
  for (let k = 0; k < 8; k += 1) {
    store.transact((tx) => {
      tx.put('cold', { id: `j${k}`, n: k, text: 'ü'.repeat(k) });
      tx.put('hot', { id: `h${k % 4}`, n: 100 + k });
      if (k === 3) tx.delete('cold', 'c1');
      if (k === 5) tx.put('ledger', { id: 'l0', n: 50, owner: 'a1' });
      tx.setMeta('k', k);
    });
    await store.settled(); // acknowledged: on disk
    states.push(stateOf(store));
  }
  const crashed = await copyStore(path);
  await store.close();
  return { crashed, stopped: await copyStore(path), states };
}

type Damage =
  | { kind: 'flip'; file: number; at: number; bit: number }
  | { kind: 'truncate'; file: number; at: number }
  | { kind: 'delete'; file: number }
  | { kind: 'swap' | 'repeat'; file: number; a: number; b: number };

const FILES = 4; // snapshot, journal, archive, the record of the last acknowledged change
const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), file: fc.nat(FILES - 1), at: fraction, bit: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(FILES - 1), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), file: fc.nat(FILES - 1) }) },
  // Lines: the journal's and the archive's (the snapshot is one line).
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('swap' as const, 'repeat' as const), file: fc.integer({ min: 1, max: 2 }), a: fc.nat(), b: fc.nat() }) },
);

/** The store's files: snapshot, journal, archive (whichever generation it is at), acknowledged change. */
async function storeFiles(path: string): Promise<string[]> {
  const archive = (await readdir(dirname(path))).find((name) => /\.rows\.\d+$/.test(name));
  if (!archive) throw new Error('the pristine store has no archive');
  return [path, `${path}.journal`, join(dirname(path), archive), `${path}.acknowledged`];
}

/** Lines of `bytes`, each with its newline. */
const linesOf = (bytes: Buffer) => {
  const lines: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end + 1;
    lines.push(bytes.subarray(start, stop));
    start = stop;
  }
  return lines;
};

/** Applies `d` to the file; returns what the journal keeps when it was cut (else null). */
async function apply(d: Damage, file: string): Promise<Buffer | null> {
  if (d.kind === 'delete') {
    await rm(file);
    return null;
  }
  const bytes = await readFile(file);
  if (d.kind === 'flip') {
    const at = Math.floor(d.at * bytes.length);
    bytes[at] ^= 1 << d.bit;
    await writeFile(file, bytes);
    return null;
  }
  if (d.kind === 'truncate') {
    const kept = bytes.subarray(0, Math.floor(d.at * bytes.length));
    await writeFile(file, kept);
    return kept;
  }
  const lines = linesOf(bytes);
  const i = d.a % lines.length;
  if (d.kind === 'swap') {
    const j = lines.length > 1 ? (i + 1 + (d.b % (lines.length - 1))) % lines.length : i;
    [lines[i], lines[j]] = [lines[j], lines[i]];
  } else lines.splice(d.b % (lines.length + 1), 0, lines[i]);
  await writeFile(file, Buffer.concat(lines));
  return null;
}

beforeAll(async () => {
  pristine = await buildPristine();
});
afterAll(removeTempDirs);

describe('store: random damage', () => {
  it('property: a damaged store is refused naming one of its files (and left as found), or opens with every acknowledged write', async () => {
    // The pristine stores hold what the property needs: journal entries (crashed), a journal holding only its header (stopped).
    expect(pristine.states).toHaveLength(9);
    let refused = 0;
    let opened = 0;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), damage, async (crashed, d) => {
        const path = await copyStore(crashed ? pristine.crashed : pristine.stopped);
        const files = await storeFiles(path);
        const journalKept = await apply(d, files[d.file]);
        const damaged = await filesOf(path);
        const expected = pristine.states.at(-1)!;
        // A journal cut after its acknowledged changes can only be refused: the record of the last
        // acknowledged change (PATH.acknowledged) tells it from a crash before they were written.
        const mustRefuse = journalKept !== null && d.file === 1 && crashed;
        let state: State | null = null;
        let error: unknown = null;
        try {
          const store = await openStore(path);
          state = stateOf(store);
          await store.close();
        } catch (caught) {
          error = caught;
        }
        if (state !== null) {
          opened += 1;
          expect(mustRefuse, 'a cut journal opened').toBe(false);
          expect(state).toEqual(expected);
        } else {
          refused += 1;
          expect((error as Error).name).toBe('StoreFileError');
          expect(files).toContain((error as { file: string }).file);
          expect((error as Error).message).toContain((error as { file: string }).file);
          expect(await filesOf(path)).toEqual(damaged);
        }
        await rm(dirname(path), { recursive: true, force: true });
      }),
      { numRuns: 240 },
    );
    // Both outcomes happened (the damage is not all harmless, nor all refused).
    expect(refused).toBeGreaterThan(100);
    expect(opened).toBeGreaterThan(0);
  });
});
