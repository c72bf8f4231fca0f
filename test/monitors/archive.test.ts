import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { ALICE, BOB, cleanupAfterEach, createDestination, createMonitor, ethKey, mine, reorg, start, startReceiver, subscribe, transfer, verify } from './support.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
// Registered second, so it runs first: the simulators are closed before their directories go.
cleanupAfterEach();

const LOGS_PER_BLOCK = 10;
/** The journal's default bound (sim/store/file-store.ts): 2 MiB, or the snapshot's size when larger. */
const JOURNAL_BOUND = 2 * 2 ** 20;
/** Spec 4.13: events and deliveries of a monitor, and notifications, are listed up to 200. */
const CAP = 200;

/** Mines `blocks` blocks of LOGS_PER_BLOCK transfers each; values count on from `first`. */
async function mineTransfers(sim: TestSimulator, first: number, blocks: number): Promise<number> {
  let value = first;
  for (let b = 0; b < blocks; b += 1) {
    await mine(sim, 'base', Array.from({ length: LOGS_PER_BLOCK }, () => transfer(ALICE, BOB, String(value++))));
  }
  return value;
}

/** Every read of monitor history: both monitors' details, the monitor list, the notifications and the delivery log. */
async function reads(sim: TestSimulator, key: string, monitorIds: string[]) {
  const get = async (url: string, withKey = true) => {
    const response = await sim.json({ url, key: withKey ? key : undefined });
    expect(response.status, `${url}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(200);
    return response.body;
  };
  return {
    details: await Promise.all(monitorIds.map((id) => get(`/v1/monitors/${id}`))),
    list: await get('/v1/monitors'),
    notifications: await get('/v1/notifications'),
    deliveries: await get('/sim/deliveries?limit=1000', false),
  };
}

const storeOf = (sim: TestSimulator) => sim.sim.deps.store;
const valuesOf = (events: any[]) => events.map((e) => Number(e.event.args.value));
const countdown = (from: number, length: number) => Array.from({ length }, (_, i) => from - i);

describe('monitor history is archived (issue 14, point 6)', () => {
  it('hundreds of chain events later, resident rows and the snapshot are what they were after a few, and every read answers the same across a checkpoint and a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-monitor-archive-'));
    dirs.push(dir);
    let sim = await start({ dir });
    const { key, accountId } = ethKey(sim);
    const receiver = await startReceiver();
    const { destination } = await createDestination(sim, accountId, receiver.url);
    expect((await verify(sim, destination.id)).status).toBe(200);
    const monitors = [await createMonitor(sim, key), await createMonitor(sim, key, { name: 'Second watcher' })];
    for (const m of monitors) expect((await subscribe(sim, m.id, destination.id)).status).toBe(201);
    const ids = monitors.map((m) => m.id);

    // A few chain events, then a checkpoint: the resident rows and snapshot size to stay at.
    let next = await mineTransfers(sim, 1, 2);
    const oldest = (await reads(sim, key, ids)).notifications.notifications.at(-1);
    await storeOf(sim).checkpoint();
    const few = storeOf(sim).figures();
    const fewSnapshot = (await stat(sim.storePath)).size;

    // Many more; a checkpoint archives them, then a reorg retracts the newest block's events from the archive.
    const firstOfMany = next;
    next = await mineTransfers(sim, next, 28);
    const total = next - 1;
    await storeOf(sim).checkpoint();
    await reorg(sim, 'base', 1);
    const retractedCount = LOGS_PER_BLOCK;

    const before = await reads(sim, key, ids);
    await storeOf(sim).checkpoint();
    const many = storeOf(sim).figures();
    const manySnapshot = (await stat(sim.storePath)).size;
    expect(await reads(sim, key, ids)).toEqual(before);

    // Bounded: not one more row in memory, and the snapshot about as large (its counters have more digits).
    // Per transfer: a chain log, and an event, a notification and a delivery for each monitor.
    const rowsAdded = (next - firstOfMany) * (1 + 2 * 3);
    expect(many.archivedRows - few.archivedRows).toBeGreaterThanOrEqual(rowsAdded);
    expect(many.residentRows).toBeLessThanOrEqual(few.residentRows);
    expect(manySnapshot).toBeLessThan(fewSnapshot * 1.05);

    // The caps and the order of spec 4.13, answered from archived rows.
    for (const detail of before.details) {
      expect(valuesOf(detail.events)).toEqual(countdown(total, CAP));
      expect(detail.events.slice(0, retractedCount).every((e: any) => e.status === 'retracted')).toBe(true);
      expect(valuesOf(detail.retractedEvents)).toEqual(countdown(total, retractedCount));
      expect(detail.deliveries).toHaveLength(CAP);
      expect(detail.deliveries.slice(0, retractedCount).map((d: any) => d.type)).toEqual(Array(retractedCount).fill('monitor.event.retracted'));
      expect(detail.deliveries.slice(retractedCount).map((d: any) => d.monitorEventId)).toEqual(detail.events.slice(0, CAP - retractedCount).map((e: any) => e.id));
      expect(detail.deliveries.every((d: any) => d.state === 'delivered')).toBe(true);
      expect(detail.deliveryLog).toHaveLength(CAP);
    }
    const listed = before.notifications.notifications;
    expect(listed).toHaveLength(CAP);
    expect(listed.slice(0, 2 * retractedCount).every((n: any) => n.kind === 'monitor.event.retracted')).toBe(true);
    const eventValues = listed.slice(2 * retractedCount).map((n: any) => Number(n.event.args.value));
    expect(eventValues.sort((a: number, b: number) => b - a)).toEqual(countdown(total, (CAP - 2 * retractedCount) / 2).flatMap((v) => [v, v]));
    expect(receiver.deliveries()).toHaveLength(2 * (total + retractedCount));
    expect(before.deliveries.deliveries).toHaveLength(1 + 2 * (total + retractedCount) > 1000 ? 1000 : 1 + 2 * (total + retractedCount));

    // A notification far past the newest 200 is still acknowledged by its id.
    const ack = await sim.json({ method: 'POST', url: `/v1/notifications/${oldest.id}/ack`, key });
    expect(ack.status).toBe(200);
    expect(ack.body.notification).toMatchObject({ id: oldest.id, title: oldest.title });
    const acknowledged = await reads(sim, key, ids);

    // A restart reads everything back from the archive.
    await sim.destroy();
    sim = await start({ dir });
    expect(await reads(sim, key, ids)).toEqual(acknowledged);
    const again = await sim.json({ method: 'POST', url: `/v1/notifications/${oldest.id}/ack`, key });
    expect(again.body).toEqual(ack.body);
    expect(storeOf(sim).figures().residentRows).toBeLessThanOrEqual(few.residentRows);
  });

  it('left running, the store checkpoints by itself: the journal stays within its bound while the monitors fill the archive', async () => {
    const sim = await start();
    const { key, accountId } = ethKey(sim);
    const receiver = await startReceiver();
    const { destination } = await createDestination(sim, accountId, receiver.url);
    expect((await verify(sim, destination.id)).status).toBe(200);
    for (const name of ['First watcher', 'Second watcher']) {
      const monitor = await createMonitor(sim, key, { name });
      expect((await subscribe(sim, monitor.id, destination.id)).status).toBe(201);
    }
    let largest = 0;
    let value = 1;
    for (let block = 0; block < 60; block += 1) {
      value = await mineTransfers(sim, value, 1);
      await storeOf(sim).flush();
      largest = Math.max(largest, (await stat(storeOf(sim).journalPath)).size);
    }
    // The history outgrew the bound several times over; the journal never did, by more than
    // what was appended while the checkpoint it started was being written.
    const archived = storeOf(sim).figures().archive!.bytes;
    expect(archived + (await stat(storeOf(sim).journalPath)).size).toBeGreaterThan(2 * JOURNAL_BOUND);
    expect(largest).toBeLessThan(1.5 * JOURNAL_BOUND);
    expect(storeOf(sim).figures().archivedRows).toBeGreaterThan(1000);
  });
});

