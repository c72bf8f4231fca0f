import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { endWalk, runBlocks, shellBlocks } from '../helpers/doc-blocks.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * docs/drill.md as written: every ```sh block, in order, in one bash, and every
 * outcome the page claims for them checked. Only what a second copy on a shared
 * machine must change is changed: port 4011 becomes a free one, /tmp/drill a fresh folder.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let scratch: string | null = null;
let walk: ChildProcess | null = null;
afterAll(() => endWalk(walk, scratch));

const verdicts = (report: { rules: Array<{ id: string; verdict: string }> }) => Object.fromEntries(report.rules.map((r) => [r.id, r.verdict]));

describe('docs/drill.md', () => {
  it('runs every sh block, and each claim the page makes of them holds', async () => {
    const doc = await readFile(join(ROOT, 'docs/drill.md'), 'utf8');
    scratch = await mkdtemp(join(tmpdir(), 'understudy-drill-doc-'));
    const port = await freePort();
    const blocks = shellBlocks(doc).map((block) => block.replace(/(?<=[: ])4011\b/g, String(port)).replace(/\/tmp\/drill\b/g, scratch!));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const { code, transcript } = await runBlocks(blocks, { cwd: ROOT, label: 'drill.md', started: (child) => (walk = child) });
    expect(code, transcript).toBe(0);
    const read = async (name: string) => readFile(join(scratch!, name), 'utf8');

    // The polite sample under storm: exit 0 (set -e), no rule failed, the table printed.
    const polite = JSON.parse(await read('polite.json'));
    expect(polite.rules.filter((r: { verdict: string }) => r.verdict === 'fail')).toEqual([]);
    expect(await read('polite.txt')).toMatch(/Conduct report: score 100/);

    // PUT /sim/chaos: set with a seed, lifted, a bad name refused naming the field.
    expect(JSON.parse(await read('storm.json'))).toMatchObject({ profile: { name: 'storm' }, seed: '7' });
    expect(JSON.parse(await read('off.json'))).toMatchObject({ profile: null });
    expect(JSON.parse(await read('refused.json'))).toMatchObject({ error: { code: 'invalid_input', message: expect.stringContaining('body.profile') } });

    // The naive sample with its first accept lost: exit 1, the two rules failed, the 409 reserved nothing, the lost run named.
    expect(await read('naive.txt')).toMatch(/exit 1\s*$/);
    const naive = JSON.parse(await read('naive.json'));
    const v = verdicts(naive);
    expect(v['accept-retried-with-same-key']).toBe('fail');
    expect(v['polling-backs-off']).toBe('fail');
    const accept = naive.rules.find((r: { id: string }) => r.id === 'accept-retried-with-same-key');
    expect(accept.evidence[0].note).toContain('the same quote was accepted with a new idempotencyKey (answered 409: nothing reserved by it)');
    expect(naive.lostAnswers.runs).toHaveLength(1);
    expect(naive.lostAnswers.runs[0]).toMatchObject({ runId: expect.any(String), boughtInstead: expect.any(String) });
    expect(BigInt(naive.lostAnswers.runs[0].reservedAtomic)).toBeGreaterThan(0n);
  }, 300_000);
});
