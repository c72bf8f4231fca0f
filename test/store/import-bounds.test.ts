import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 14 point 5: imports cannot poison the process. A snapshot import is
 * bounded (nesting) and checked whole before anything changes: after any
 * refused import the simulator is exactly as before (the same export bytes) and
 * writes, exports and a restart still work. /sim amounts are bounded to the
 * spec's 78 digits, refused with 400 naming the field.
 */

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-import-bounds-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const exportText = async (t: TestSimulator) => {
  const response = await t.request({ url: '/sim/snapshot' });
  expect(response.statusCode).toBe(200);
  return response.body;
};

const put = (t: TestSimulator, body: string) => t.request({ method: 'PUT', url: '/sim/snapshot', headers: { 'content-type': 'application/json' }, body });

/** `levels` nested objects as JSON text, built as text: JSON.stringify itself overflows the stack long before 50,000. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

/** The exported document with the JSON text `text` put in place of the placeholder value `"@@"` that `edit` placed. */
function withText(exported: string, edit: (doc: any) => void, text: string): string {
  const doc = JSON.parse(exported);
  edit(doc);
  return JSON.stringify(doc).replace('"@@"', text);
}

/** What a working simulator can still do: a durable write, an export that parses, a key read (demo keys from its first start). */
async function stillWorks(t: TestSimulator, demo: TestSimulator['demo']): Promise<void> {
  const evm = demo.find((d) => d.profile === 'local_custody')!.accountId;
  const deposit = await t.json({ method: 'POST', url: `/sim/accounts/${evm}/deposits`, body: { profile: 'local_custody', amountAtomic: '5' } });
  expect(deposit.status).toBe(201);
  expect(JSON.parse(await exportText(t)).format).toBe('understudy-snapshot');
  expect((await t.json({ url: '/v1/buyer/key', key: demo.find((d) => d.profile === 'local_custody')!.secret })).status).toBe(200);
}

describe('PUT /sim/snapshot: bounded, and checked whole before anything changes', () => {
  let t: TestSimulator;
  let dir: string;
  let demo: TestSimulator['demo'];
  beforeAll(async () => {
    dir = await freshDir();
    t = await startSimulator({ dir });
    demo = t.demo;
    const evm = t.demo.find((d) => d.profile === 'local_custody')!.accountId;
    await t.json({ method: 'POST', url: `/sim/accounts/${evm}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '100' } });
  });
  afterEach(async () => {
    // Each test leaves a simulator that still serves; a refused import never left one that cannot stop.
    expect((await t.json({ url: '/sim/clock' })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a row nested 50,000 deep with 400 naming where; the export bytes are unchanged, writes, exports and a restart work', async () => {
    const before = await exportText(t);
    const accountId = Object.keys(JSON.parse(before).store.collections.accounts)[0];
    const body = withText(before, (doc) => (doc.store.collections.accounts[accountId].deep = '@@'), nested(50_000));
    const response = await put(t, body);
    expect(response.statusCode, response.body).toBe(400);
    const { error } = JSON.parse(response.body);
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(`body: 'store.collections.accounts.${accountId}.deep.a.a.a.a.a.…' is nested more than 64 levels deep`);
    expect(await exportText(t)).toBe(before);
    await stillWorks(t, demo);

    // The store on disk is whole too: it closes, reopens and answers.
    const afterWrites = await exportText(t);
    await t.close();
    t = await startSimulator({ dir });
    expect(await exportText(t)).toBe(afterWrites);
    await stillWorks(t, demo);
  });

  it('takes a document nested exactly 64 levels and refuses 65, in meta or in an array', async () => {
    const exported = await exportText(t);
    // Document (1) > store (2) > meta (3) > note (4 ...): the note's own levels come on top of three.
    const at64 = withText(exported, (doc) => (doc.store.meta.note = '@@'), nested(61));
    const taken = await put(t, at64);
    expect(taken.statusCode, taken.body).toBe(200);
    const before = await exportText(t);
    for (const [edit, levels, path] of [
      [(doc: any) => (doc.store.meta.note = '@@'), 62, "'store.meta.note.a.a.a.a.a.a.a.…'"],
      [(doc: any) => (doc.store.meta.list = ['@@']), 61, "'store.meta.list.0.a.a.a.a.a.a.…'"],
    ] as const) {
      const response = await put(t, withText(exported, edit, nested(levels)));
      expect(response.statusCode, response.body).toBe(400);
      expect(JSON.parse(response.body).error.message).toContain(`body: ${path} is nested more than 64 levels deep`);
      expect(await exportText(t)).toBe(before);
    }
    await stillWorks(t, demo);
  });

  it('refuses, naming the field, every document the simulator could not load, and changes nothing', async () => {
    const exported = await exportText(t);
    const doc = () => JSON.parse(exported);
    const keyId = Object.keys(doc().store.collections.keys)[0];
    const balanceId = Object.keys(doc().store.collections.balances)[0];
    const cases: Array<[string, (d: any) => void, string]> = [
      ['clock', (d) => (d.clock.now = 'yesterday'), "body: 'clock.now' must be a"],
      ['store format', (d) => (d.store.format = 'other'), "body: 'store.format' must be \"understudy-store\""],
      ['generator', (d) => (d.store.meta.random = { state: 'x', counter: 1 }), "body: 'store.meta.random' must be the generator's state"],
      ['generator counter', (d) => (d.store.meta.random.counter = -1), "body: 'store.meta.random' must be the generator's state"],
      ['request log', (d) => (d.store.meta.telemetry = { requests: 5, keyUsage: {} }), "body: 'store.meta.telemetry.requests' must be an array"],
      ['request log entry', (d) => (d.store.meta.telemetry = { requests: [{ at: 1 }], keyUsage: {} }), "body: 'store.meta.telemetry.requests.0' must be a request log entry"],
      ['key usage', (d) => (d.store.meta.telemetry = { requests: [], keyUsage: { [keyId]: { lastUsedAt: null, minutes: 'lots' } } }), `body: 'store.meta.telemetry.keyUsage.${keyId}' must be`],
      ['faults', (d) => (d.store.meta.faults = { paymentsDisabled: ['gold'], researchProviderUnavailable: false, exportStorageUnavailable: false }), "body: 'store.meta.faults.paymentsDisabled' must be an array of profiles"],
      ['a sequence', (d) => (d.store.meta.jobSeq = 'ten'), "body: 'store.meta.jobSeq' must be a non-negative integer"],
      ['a chain', (d) => (d.store.meta['chain:base'] = { extraBlocks: '-1', generations: {} }), "body: 'store.meta.chain:base.extraBlocks' must be a count"],
      ['a row id', (d) => (d.store.collections.keys[keyId] = { ...d.store.collections.keys[keyId], id: 'other' }), `body: 'store.collections.keys.${keyId}' must be an object whose id is its key`],
      ['a collection', (d) => (d.store.collections.keys = []), "body: 'store.collections.keys' must be an object of rows by id"],
      ['a balance', (d) => (d.store.collections.balances[balanceId].availableAtomic = '999999999999999999999999'), `body: 'store.collections.balances.${balanceId}' breaks the ledger invariant`],
      ['a job', (d) => (d.store.collections.jobs = { j: { id: 'j', dueAtMs: 'soon', seq: 1, kind: 'key.expire', ref: keyId } }), "body: 'store.collections.jobs.j.dueAtMs' must be a finite number"],
      ['a chain log', (d) => (d.store.collections.chainLogs = { l: { id: 'l', chain: 'base', blockNumber: 'twelve' } }), "body: 'store.collections.chainLogs.l.blockNumber' must be a block number"],
      ['a monitor event', (d) => (d.store.collections.monitorEvents = { e: { id: 'e', kind: 'match', monitorId: 7, ruleId: 'r', logId: 'l' } }), "body: 'store.collections.monitorEvents.e.monitorId' must be a string"],
    ];
    const before = await exportText(t);
    for (const [what, edit, message] of cases) {
      const d = doc();
      edit(d);
      const response = await put(t, JSON.stringify(d));
      expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
      const { error } = JSON.parse(response.body);
      expect(error.code, what).toBe('invalid_input');
      expect(error.message, what).toContain(message);
      expect(await exportText(t), what).toBe(before);
    }
    await stillWorks(t, demo);
    // The document as exported still imports.
    const restored = await put(t, exported);
    expect(restored.statusCode, restored.body).toBe(200);
    await stillWorks(t, demo);
  });
});

describe('/sim amounts: at most the spec\'s 78 digits', () => {
  let t: TestSimulator;
  beforeAll(async () => {
    t = await startSimulator({ dir: await freshDir() });
  });
  afterAll(async () => {
    await t?.close();
  });

  const digits = (n: number) => `9${'0'.repeat(n - 1)}`;
  const evm = () => t.demo.find((d) => d.profile === 'local_custody')!.accountId;
  const PATTERN = '^(0|[1-9][0-9]{0,77})$';

  it('refuses a deposit of 200,000 digits or of 79 with 400 naming amountAtomic, changing nothing; takes 78', async () => {
    const balances = async () => (await t.json({ url: `/sim/accounts/${evm()}` })).body.balances;
    const before = await balances();
    for (const n of [200_000, 79]) {
      const response = await t.json({ method: 'POST', url: `/sim/accounts/${evm()}/deposits`, body: { profile: 'local_custody', amountAtomic: digits(n) } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_input', message: `body: 'amountAtomic' does not match the pattern ${PATTERN}.` } });
      expect(await balances()).toEqual(before);
    }
    const taken = await t.json({ method: 'POST', url: `/sim/accounts/${evm()}/deposits`, body: { profile: 'local_custody', amountAtomic: digits(78) } });
    expect(taken.status).toBe(201);
    expect(taken.body.balance.depositedAtomic.length).toBe(78);
  });

  it('refuses a key spend limit and a scripted model cost over 78 digits, naming the field', async () => {
    const keysBefore = (await t.json({ url: `/sim/accounts/${evm()}/keys` })).body.keys.length;
    const key = await t.json({ method: 'POST', url: `/sim/accounts/${evm()}/keys`, body: { profile: 'local_custody', spendLimitAtomic: digits(200_000) } });
    expect(key.status).toBe(400);
    expect(key.body.error.message).toBe(`body: 'spendLimitAtomic' does not match the pattern ${PATTERN}.`);
    expect((await t.json({ url: `/sim/accounts/${evm()}/keys` })).body.keys.length).toBe(keysBefore);
    expect((await t.json({ method: 'POST', url: `/sim/accounts/${evm()}/keys`, body: { profile: 'local_custody', spendLimitAtomic: digits(78) } })).status).toBe(201);

    // Validation comes before the run is looked up: no run is needed to see the bound.
    const script = await t.json({ method: 'POST', url: '/sim/runs/00000000-0000-4000-8000-000000000000/script', body: { outcome: 'succeeded', modelCostAtomic: digits(79) } });
    expect(script.status).toBe(400);
    expect(script.body.error.message).toBe(`body: 'modelCostAtomic' does not match the pattern ${PATTERN}.`);
  });
});
