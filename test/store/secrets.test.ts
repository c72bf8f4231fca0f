import { createHash, createHmac } from 'node:crypto';
import { urlAlphabet } from 'nanoid';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Collections } from '../../sim/domain/collections.ts';
import { STORE_LAYOUT } from '../../sim/store/layout.ts';
import { signatureMatches } from '../../sim/domain/deliveries/index.ts';
import type { WebhookRequest, WebhookResult } from '../../sim/runtime/webhook-sender.ts';
import { FileStore, type Snapshot } from '../../sim/store/file-store.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 14 point 7: the store files and a snapshot can be handed to someone
 * else. With everything in them, nobody recomputes an issued key secret or
 * signing secret: not the way the old store allowed (seed and counter in
 * `meta.random`, `meta.sealingKey`), nor by running the stored generator state
 * (docs/decisions.md, Threat model). The same --seed still gives the same bytes.
 */

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-store-secrets-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest();
const hmac = (key: string, ...parts: Array<string | Buffer>) => {
  const h = createHmac('sha256', key);
  for (const part of parts) h.update(part);
  return h.digest();
};

/**
 * The attacker's copy of the documented design (docs/decisions.md, Threat model),
 * written out here rather than imported, so this search runs unchanged against
 * the code before it too: a ratchet started at H("understudy-ratchet", seed),
 * each step giving H(state, "out") and moving to H(state, "next"); a sealing key
 * of H("understudy-sealing", seed).
 */
const joined = (...parts: Array<string | Buffer>) => {
  const h = createHash('sha256');
  parts.forEach((part, i) => h.update(i > 0 ? Buffer.concat([Buffer.from('\0'), Buffer.from(part)]) : part));
  return h.digest();
};
const ratchetOutputs = function* (state: Buffer, steps: number) {
  for (let i = 0; i < steps; i += 1) {
    yield joined(state, 'out');
    state = joined(state, 'next');
  }
};
const sealingKeyOf = (seed: string) => joined('understudy-sealing', seed).toString('hex');

/** A seed nobody would guess (the default seed 1 is public: docs/decisions.md, Threat model). */
const PRIVATE_SEED = 'a-private-seed-9f4c2e71b05d';

/** A receiver that answers every verification challenge, recording what it was sent. */
function recordingSender() {
  const sent: WebhookRequest[] = [];
  const send = async (request: WebhookRequest): Promise<WebhookResult> => {
    sent.push(request);
    const { challenge } = JSON.parse(request.body) as { challenge?: string };
    return { kind: 'answered', status: 200, body: JSON.stringify(challenge ? { challenge } : { ok: true }) };
  };
  return { sent, send };
}

interface Issued {
  /** Key secret → the SHA-256 hex the store keeps of it. */
  keys: Map<string, string>;
  /** Signing secret → `destination:ID` or `monitor:ID`. */
  signing: Map<string, string>;
}

/** Demo keys, one more key, a destination's and an owner monitor's signing secrets. */
async function issueSecrets(t: TestSimulator): Promise<Issued> {
  const keys = new Map(t.demo.map((d) => [d.secret, sha256(d.secret).toString('hex')]));
  const evm = t.demo.find((d) => d.profile === 'local_custody')!.accountId;
  const key = await t.json({ method: 'POST', url: `/sim/accounts/${evm}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '100' } });
  expect(key.status).toBe(201);
  keys.set(key.body.secret, sha256(key.body.secret).toString('hex'));
  const destination = await t.json({ method: 'POST', url: `/sim/accounts/${evm}/destinations`, body: { url: 'https://hooks.example.test/in' } });
  expect(destination.status).toBe(201);
  const monitor = await t.json({
    method: 'POST',
    url: `/sim/accounts/${evm}/monitors`,
    body: { name: 'secrets', chain: 'base', rules: [{ id: 'r', type: 'erc20-transfer', token: `0x${'a1'.repeat(20)}` }], durationSeconds: 3600, tickBudget: 1000, rpcBudget: 10_000, windowBlocks: 1, idempotencyKey: 'secrets-monitor', webhookUrl: 'https://hooks.example.test/m' },
  });
  expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
  const signing = new Map([
    [destination.body.signingSecret as string, `destination:${destination.body.destination.id}`],
    [monitor.body.webhookSecret as string, `monitor:${monitor.body.monitor.id}`],
  ]);
  return { keys, signing };
}

/** Every store file but the lock and PATH.secrets (the one file documented as not to be shared). */
async function storeFiles(storePath: string): Promise<string[]> {
  const texts: string[] = [];
  for (const name of await readdir(dirname(storePath))) {
    if (!name.startsWith(basename(storePath)) || name.endsWith('.lock') || name.endsWith('.secrets')) continue;
    texts.push(await readFile(join(dirname(storePath), name), 'utf8'));
  }
  return texts;
}

/** Every JSON string in `texts` (whatever the files' layout), and the largest counter any of them names. */
function harvest(texts: string[]): { strings: string[]; maxCounter: number } {
  const strings = new Set<string>();
  let maxCounter = 0;
  for (const text of texts) {
    for (const match of text.matchAll(/"((?:[^"\\]|\\.)*)"/g)) strings.add(JSON.parse(`"${match[1]}"`) as string);
    for (const match of text.matchAll(/\d+/g)) if (match[0].length < 16) strings.add(match[0]);
    for (const match of text.matchAll(/"counter":(\d+)/g)) maxCounter = Math.max(maxCounter, Number(match[1]));
  }
  return { strings: [...strings], maxCounter };
}

/**
 * Tries to recompute the issued secrets from `texts`, with every string in them
 * taken as a seed, a sealing key or a generator state, and `extraKeys` added as
 * sealing keys: the pre-ratchet derivations (SHA-256 of `seed:counter`; HMAC
 * under `meta.sealingKey`) and the current ones (the ratchet run forward from
 * any state found, sealed under any key found or derived from a seed found).
 */
function recompute(texts: string[], issued: Issued, extraKeys: string[] = []): string[] {
  const { strings, maxCounter } = harvest(texts);
  const found = new Set<string>();
  const hashes = new Map([...issued.keys].map(([secret, hash]) => [hash, secret]));
  const tryKey = (token: string) => {
    const secret = hashes.get(sha256(`svc_test_${token}`).toString('hex'));
    if (secret) found.add(secret);
  };
  const trySigning = (key: string) => {
    for (const [secret, owner] of issued.signing) if (`whsec_${hmac(key, owner).toString('base64url')}` === secret) found.add(secret);
  };
  const steps = maxCounter + 16;
  const seeds = strings.filter((s) => s.length <= 200);
  const stringKeys = [...new Set([...strings.filter((s) => /^[0-9a-f]{64}$/.test(s)), ...extraKeys])];
  // The old way: the stream was SHA-256(`${seed}:${counter}`), signing secrets HMACs under meta.sealingKey.
  for (const seed of seeds) for (let counter = 0; counter <= steps; counter += 1) tryKey(sha256(`${seed}:${counter}`).toString('base64url'));
  for (const key of [...strings, ...extraKeys]) trySigning(key);
  // The ratchet run forward, each output taken raw and sealed: from any seed found with that seed's
  // sealing key, and from any state found (a 64-hex string) under any key found.
  // Today's way (sim/domain/deliveries/signing.ts): 43 drawn bytes (two outputs), sealed in HMAC blocks,
  // read by nanoid's customRandom over its 64-character alphabet, last byte first.
  const nanoidToken = (bytes: Buffer) => [...bytes].reverse().map((b) => urlAlphabet[b & 63]).join('');
  const sealed43 = (key: string, drawn: Buffer) => Buffer.concat([hmac(key, 'key:', drawn, '0'), hmac(key, 'key:', drawn, '1')]).subarray(0, 43);
  const run = (start: Buffer, keys: string[]) => {
    const outputs = [...ratchetOutputs(start, steps)];
    outputs.forEach((bytes, j) => {
      tryKey(bytes.toString('base64url'));
      const drawn = j + 1 < outputs.length ? Buffer.concat([bytes, outputs[j + 1]]).subarray(0, 43) : null;
      if (drawn) tryKey(nanoidToken(drawn));
      for (const key of keys) {
        tryKey(hmac(key, 'key:', bytes).toString('base64url'));
        if (drawn) tryKey(nanoidToken(sealed43(key, drawn)));
      }
    });
  };
  for (const seed of seeds) {
    const key = sealingKeyOf(seed);
    trySigning(key);
    run(joined('understudy-ratchet', seed), [key]);
  }
  for (const state of stringKeys.filter((k) => /^[0-9a-f]{64}$/.test(k))) run(Buffer.from(state, 'hex'), stringKeys);
  return [...found];
}

describe('a shared store or snapshot reveals no secret', () => {
  it('from a snapshot and the store files alone, no issued key secret or signing secret can be recomputed; neither holds the seed or the sealing key', async () => {
    const t = await startSimulator({ dir: await freshDir(), seed: PRIVATE_SEED });
    const issued = await issueSecrets(t);
    expect(issued.keys.size).toBe(5);
    expect(issued.signing.size).toBe(2);
    await t.sim.deps.store.settled();
    const snapshot = (await t.request({ url: '/sim/snapshot' })).body;
    const live = await storeFiles(t.storePath);
    await t.close();
    const stopped = await storeFiles(t.storePath);

    expect(recompute([snapshot, ...live, ...stopped], issued)).toEqual([]);
    const sealingKey = JSON.parse(await readFile(`${t.storePath}.secrets`, 'utf8')).sealingKey as string;
    for (const text of [snapshot, ...live, ...stopped]) {
      expect(text).not.toContain(PRIVATE_SEED);
      expect(text).not.toContain(sealingKey);
    }
  });

  it('the search is real: with PATH.secrets too it finds the signing secrets and the keys drawn after the files\' oldest state, but none once a clean stop has moved the state past them', async () => {
    const t = await startSimulator({ dir: await freshDir(), seed: PRIVATE_SEED });
    const issued = await issueSecrets(t);
    await t.sim.deps.store.settled();
    const live = await storeFiles(t.storePath);
    await t.close();
    const stopped = await storeFiles(t.storePath);
    const secretsFile = await readFile(`${t.storePath}.secrets`, 'utf8');
    const { sealingKey } = JSON.parse(secretsFile) as { sealingKey: string };
    // Owner-only, and it says what it is.
    expect((await stat(`${t.storePath}.secrets`)).mode & 0o077).toBe(0);
    expect(secretsFile).toContain('Do not share this file');

    // While serving, the snapshot file still holds the state the store was created with: the keys drawn since come back.
    expect(new Set(recompute(live, issued, [sealingKey]))).toEqual(new Set([...issued.keys.keys(), ...issued.signing.keys()]));
    // After a clean stop only the current state is stored, and the ratchet does not run backwards.
    expect(new Set(recompute(stopped, issued, [sealingKey]))).toEqual(new Set(issued.signing.keys()));
  });
});

describe('the same seed still gives the same bytes', () => {
  async function session(dir: string) {
    const { sent, send } = recordingSender();
    // Byte-identical deliveries need the simulated signing time (serve --webhook-time simulated): the real one moves between the two sessions.
    const t = await startSimulator({ dir, seed: PRIVATE_SEED, send, webhookTime: 'simulated' });
    const issued = await issueSecrets(t);
    const destinationId = [...issued.signing.values()].find((o) => o.startsWith('destination:'))!.slice('destination:'.length);
    const verify = await t.request({ method: 'POST', url: `/sim/destinations/${destinationId}/verify` });
    expect(verify.statusCode, verify.body).toBe(200);
    const snapshot = (await t.request({ url: '/sim/snapshot' })).body;
    await t.close();
    return { t, issued, destinationId, sent, snapshot, files: await storeFiles(t.storePath), secrets: await readFile(`${t.storePath}.secrets`, 'utf8'), verify: verify.body };
  }

  it('two simulators of one seed give the same secrets, answers, snapshot, store files and PATH.secrets', async () => {
    const a = await session(await freshDir());
    const b = await session(await freshDir());
    expect([...b.issued.keys.keys()]).toEqual([...a.issued.keys.keys()]);
    expect([...b.issued.signing.keys()]).toEqual([...a.issued.signing.keys()]);
    expect(b.verify).toBe(a.verify);
    expect(b.snapshot).toBe(a.snapshot);
    expect(b.files).toEqual(a.files);
    expect(b.secrets).toBe(a.secrets);
    expect(b.sent.map((r) => r.headers)).toEqual(a.sent.map((r) => r.headers));
  });

  it('after a restart under another --seed, deliveries are still signed with the secret shown at creation', async () => {
    const dir = await freshDir();
    const first = await startSimulator({ dir, seed: PRIVATE_SEED });
    const issued = await issueSecrets(first);
    await first.close();
    const [shown, owner] = [...issued.signing].find(([, o]) => o.startsWith('destination:'))!;
    const { sent, send } = recordingSender();
    const t = await startSimulator({ dir, seed: 999, send });
    const verify = await t.request({ method: 'POST', url: `/sim/${owner.replace(':', 's/')}/verify` });
    expect(verify.statusCode, verify.body).toBe(200);
    await t.close();
    expect(sent).toHaveLength(1);
    const h = sent[0].headers;
    expect(signatureMatches(shown, h['x-service-timestamp'], h['x-service-event-id'], sent[0].body, h['x-service-signature'])).toBe(true);
  });
});

describe('a store of a development build from before the ratchet and PATH.secrets', () => {
  /**
   * A store as the code before this change left it: `meta.random = { seed, counter }`
   * and `meta.sealingKey`, no PATH.secrets. Written through the store itself, so it
   * is a well-formed store whatever the file layout.
   */
  async function legacySnapshot(): Promise<{ snapshot: Snapshot; destinationId: string; legacyKey: string }> {
    const t = await startSimulator({ dir: await freshDir(), seed: PRIVATE_SEED });
    const evm = t.demo.find((d) => d.profile === 'local_custody')!.accountId;
    const destination = await t.json({ method: 'POST', url: `/sim/accounts/${evm}/destinations`, body: { url: 'https://hooks.example.test/in' } });
    const current = t.sim.deps.store.toSnapshot();
    await t.close();
    const legacyKey = 'b'.repeat(64);
    const snapshot = { ...current, meta: { ...current.meta, random: { seed: 'old-seed', counter: 40 }, sealingKey: legacyKey } };
    return { snapshot, destinationId: destination.body.destination.id, legacyKey };
  }

  /** The store files of `snapshot`, written through the store itself (so well-formed whatever the layout), without PATH.secrets. */
  async function writeStore(snapshot: Snapshot): Promise<string> {
    const storePath = join(await freshDir(), 'old.json');
    const { store } = await FileStore.open<Collections>(storePath, () => snapshot, STORE_LAYOUT);
    await store.close();
    return storePath;
  }

  it('is refused, naming the file and how to start a new one; nothing is converted or written beside it', async () => {
    const old = await legacySnapshot();
    const storePath = await writeStore(old.snapshot);
    await expect(startSimulator({ storePath, dir: dirname(storePath) })).rejects.toThrow(/generator state \(meta\.random\) is not one this build reads\. .*start a new store with --store NEW_PATH/);
    // Nothing was converted: the old state is still there, and no secrets file was written beside it.
    expect((await storeFiles(storePath)).join('\n')).toContain('old-seed');
    await expect(readFile(`${storePath}.secrets`)).rejects.toMatchObject({ code: 'ENOENT' });
    // A second try is refused the same way.
    await expect(startSimulator({ storePath, dir: dirname(storePath) })).rejects.toThrow(/meta\.random/);
  });
});
