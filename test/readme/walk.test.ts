import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.ts';
import { freePort } from '../helpers/ports.ts';
import { endWalk, runBlocks, shellBlocks } from '../helpers/doc-blocks.ts';

/**
 * The README's walk, run as written: every ```sh block, in order, in one bash
 * (shell variables carry over between blocks, as in the reader's terminal).
 * Only what a second copy of the walk on a shared machine must change is
 * changed: the ports 4010 and 4020 become free ones and /tmp/us a fresh folder.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let walk: ChildProcess | null = null;
let scratch: string | null = null;
afterAll(() => endWalk(walk, scratch));

describe('README walk', () => {
  it('finds the walk: the serve, key, quote, accept, advance and webhook blocks, and nothing it cannot run', async () => {
    const blocks = shellBlocks(await readFile(join(ROOT, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const all = blocks.join('\n');
    for (const step of ['serve --port 4010', '/sim/accounts/$ACCOUNT/keys', '/accept', 'idempotencyKey', '/sim/clock/advance', 'explain $RUN', 'case check', 'webhook listen --port 4020', '/verify', 'webhook probe', 'kill $RECEIVER $SIM']) {
      expect(all).toContain(step);
    }
    // The console and the suite itself cannot run headless inside the suite.
    expect(all).not.toMatch(/npm (ci|install|start|test)\b/);
  });

  it('runs every sh block in order against a fresh simulator: the key, the quote accepted, the run settled, the destination verified, the probe 7 of 7', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    // Never install or recurse into the suite from inside it (node_modules is shared).
    expect(shellBlocks(readme).join('\n')).not.toMatch(/npm (ci|install|start|test)\b/);
    scratch = await mkdtemp(join(tmpdir(), 'understudy-readme-'));
    const sim = await freePort();
    const receiver = await freePort();
    const blocks = shellBlocks(readme).map((block) =>
      block
        .replace(/(?<=[: ])4010\b/g, String(sim))
        .replace(/(?<=[: ])4020\b/g, String(receiver))
        .replace(/\/tmp\/us\b/g, scratch!),
    );
    const { code, stdout, stderr, transcript } = await runBlocks(blocks, { cwd: ROOT, label: 'README', started: (child) => (walk = child) });
    expect(code, transcript).toBe(0);
    expect(stderr.match(/--- README sh block \d+/g)).toHaveLength(shellBlocks(readme).length);

    // No call was refused: every API refusal has the spec's { error: { code, message } } body.
    expect(stdout, transcript).not.toContain('"error":{');
    expect(stdout).toMatch(/Demo credentials .*\n(.*\n)*  local_custody +account [0-9a-f-]{36} \(evm\)  key svc_test_/);
    expect(stdout).toMatch(/"secret":"svc_test_[A-Za-z0-9_-]+"/);
    const quote = /"quote":\{"id":"([0-9a-f-]{36})","contractHash":"([0-9a-f]{64})"/.exec(stdout);
    expect(quote, transcript).not.toBeNull();
    const acceptance = JSON.parse(await readFile(join(scratch, 'acceptance.json'), 'utf8'));
    expect(acceptance).toMatchObject({ run: { quoteId: quote![1], status: 'queued' }, reservation: { quoteId: quote![1] } });
    expect(stdout).toContain(`"run":{"id":"${acceptance.run.id}","status":"succeeded"`);
    expect(stdout).toMatch(new RegExp(`"destination":\\{"id":"[0-9a-f-]{36}","url":"http://127\\.0\\.0\\.1:${receiver}/hooks","kind":"https","state":"verified"`));
    expect(stdout).toContain('7 passed, 0 failed');
    // The support kit on the walk's run: its money explained, its evidence bundle checked against a reproduction.
    expect(stdout).toMatch(/total charged: [0-9.]+ ETH \(\d+ atomic\)/);
    expect(stdout).toMatch(/AGREE: all \d+ fields equal/);

    // The receiver judged the frozen simulator's deliveries by its own (wall) clock, and the walk's last block stopped it and the simulator.
    const receiverLog = await readFile(join(scratch, 'receiver.log'), 'utf8');
    expect(receiverLog).toContain('judging timestamps by the wall clock\n');
    expect(receiverLog).toMatch(/"verdict":"verified".*"type":"service.destination.verification"/);
    const stopped = (url: string) => fetch(url).then(() => false, () => true);
    await waitFor(() => stopped(`http://127.0.0.1:${sim}/sim/clock`), 'the simulator to stop');
    await waitFor(() => stopped(`http://127.0.0.1:${receiver}/hooks`), 'the receiver to stop');
  });
});
