import { createClock, initialClockState, limiterTime, monotonicMs, type ClockMode, type ClockState, type RealTime, wallNowMs } from './runtime/clock.ts';
import { SeededRandom, type RandomState } from './runtime/random.ts';
import { FileStore, type Snapshot, type StoreFs, type StoreWriteError } from './store/file-store.ts';
import { STORE_LAYOUT, type Collections } from './domain/collections.ts';
import { transact, type Deps } from './domain/context.ts';
import type { Environment, Job } from './domain/records.ts';
import { Scheduler, type Advanced, type SchedulerOptions } from './domain/jobs.ts';
import { MonitorIndex } from './domain/monitor-index.ts';
import { Telemetry, type TelemetryState } from './domain/telemetry.ts';
import { RollingWindows } from './domain/rate-limits.ts';
import { assertBalanceInvariant } from './domain/ledger.ts';
import { buildListingFixtures } from '../fixtures/listings/index.ts';
import { registerJobHandlers } from './domain/job-handlers.ts';
import { sendWebhook, type WebhookSender } from './runtime/webhook-sender.ts';
import { errors } from './domain/errors.ts';
import { LIMITS } from './domain/rate-limits.ts';

export interface SimulatorSnapshot {
  format: 'understudy-snapshot';
  version: 1;
  clock: { now: string; mode: ClockMode };
  store: Snapshot;
}

export interface SimulatorOptions {
  storePath: string;
  seed?: string | number;
  env?: Environment;
  clock?: ClockMode;
  limits?: boolean;
  controlToken?: string | null;
  /** Outbound webhook POSTs (tests may substitute a recorder). */
  send?: WebhookSender;
  /**
   * Real time for the rate windows (docs/decisions.md, Limits); monotonic by
   * default. Scenario runs pass one that stands still, tests one they move.
   */
  realTime?: RealTime;
  /** The runaway bound of one advance (sim/domain/jobs.ts); tests lower it. */
  maxJobsPerAdvance?: number;
  /** The files the store writes go through (tests hand in a disk that fills up). */
  storeFs?: StoreFs;
}

/** A new store's contents: the catalog fixtures and the generator's seed; no accounts. */
export function initialSnapshot(seed: string, clock: ClockState): Snapshot {
  const listings: Record<string, Collections['listings']> = {};
  const versions: Record<string, Collections['versions']> = {};
  for (const { listing, version } of buildListingFixtures()) {
    listings[listing.id] = listing;
    versions[version.id] = version;
  }
  const random: RandomState = { seed, counter: 0 };
  return { format: 'understudy-store', version: 1, seq: 0, meta: { random, clock }, collections: { listings, versions } };
}

/**
 * The simulator without HTTP: store, clock, generator, scheduler, limits and
 * telemetry, wired once. sim/app.ts puts Fastify in front of it.
 */
export class Simulator {
  readonly scheduler: Scheduler;
  /** Blocks holding chain logs and reported monitor events, kept in memory (see sim/domain/monitor-index.ts). */
  readonly monitorIndex: MonitorIndex;
  readonly telemetry: Telemetry;
  readonly windows: RollingWindows;
  private stopTicking: (() => void) | null = null;

  private constructor(
    readonly deps: Deps,
    readonly created: boolean,
    readonly limitsOn: boolean,
    readonly controlToken: string | null,
    readonly send: WebhookSender,
    realTime: RealTime,
    schedulerOptions: SchedulerOptions,
  ) {
    this.windows = new RollingWindows(limiterTime(deps.clock, realTime));
    this.telemetry = new Telemetry(deps.store.getMeta<TelemetryState>('telemetry'));
    deps.store.setVolatile('telemetry', () => this.telemetry.snapshot());
    this.scheduler = new Scheduler(deps, schedulerOptions);
    this.monitorIndex = MonitorIndex.attach(deps.store);
    deps.store.setHooks({
      beforeCommit: (tx) => {
        for (const balance of tx.written('balances')) assertBalanceInvariant(balance);
      },
      afterCommit: (collection, id, row) => {
        if (collection === 'jobs') this.scheduler.observe(row as Job | null);
        else this.monitorIndex.observe(collection, id, row);
      },
    });
    registerJobHandlers(this);
  }

  static async open(options: SimulatorOptions): Promise<Simulator> {
    const mode = options.clock ?? 'realtime';
    const seed = String(options.seed ?? 1);
    const { store, created } = await FileStore.open<Collections>(options.storePath, () => initialSnapshot(seed, initialClockState(mode)), STORE_LAYOUT, { fs: options.storeFs });
    // The store remembers simulated time; a restart continues from it in the mode asked for.
    const saved = store.getMeta<ClockState>('clock') ?? initialClockState(mode);
    const savedNow = saved.mode === 'frozen' ? saved.valueMs : wallNowMs() + saved.valueMs;
    const clock = createClock(mode === 'frozen' ? { mode, valueMs: savedNow } : { mode, valueMs: Math.max(0, savedNow - wallNowMs()) });
    const random = new SeededRandom(store.getMeta<RandomState>('random') ?? { seed, counter: 0 });
    const deps: Deps = { clock, random, store, env: options.env ?? 'test' };
    for (const balance of store.all('balances')) assertBalanceInvariant(balance);
    return new Simulator(deps, created, options.limits ?? true, options.controlToken ?? null, options.send ?? sendWebhook, options.realTime ?? monotonicMs, {
      maxJobsPerAdvance: options.maxJobsPerAdvance,
    });
  }

  /** Runs whatever is due at the current simulated time (realtime: since the last request or tick). */
  catchUp(): Promise<Advanced> {
    return this.scheduler.advanceTo(() => this.deps.clock.now());
  }


  /** Monitor creation: 10 per minute per owner (spec 8), unless limits are off. */
  createMonitorLimited<T>(accountId: string, create: () => T): T {
    if (this.limitsOn) {
      const taken = this.windows.take(`monitors:${accountId}`, LIMITS.monitorCreationsPerMinute, this.deps.clock.now());
      if (!taken.allowed) throw errors.tooManyRequests(taken.retryAfterSeconds);
    }
    return create();
  }

  /** Keeps due jobs running in realtime mode while nobody calls (webhook retries, run steps). */
  startRealtimeTicks(everyMs = 250): void {
    if (this.deps.clock.mode !== 'realtime' || this.stopTicking) return;
    this.stopTicking = this.deps.clock.startTicking(() => void this.catchUp().catch(() => undefined), everyMs);
  }

  /**
   * Advances the clock. `seconds` counts from when this advance's turn comes in
   * frozen mode (two concurrent 10 s advances make 20 s), and from `from` (the
   * request's instant) in realtime mode, where wall time keeps moving.
   */
  async advance(to: { seconds: number; from?: number } | { toMs: number } | { next: true }): Promise<Advanced> {
    try {
      return 'next' in to
        ? await this.scheduler.advanceToNext()
        : await this.scheduler.advanceTo(() => {
            if (!('seconds' in to)) return to.toMs;
            const base = this.deps.clock.mode === 'realtime' && to.from !== undefined ? to.from : this.deps.clock.now();
            return base + Math.round(to.seconds * 1000);
          });
    } finally {
      // A refused advance still ran jobs up to where the clock now stands; a restart resumes there.
      this.saveClock();
    }
  }

  saveClock(): void {
    transact(this.deps, (tx) => tx.setMeta('clock', this.deps.clock.snapshot()));
  }

  async reset(seed?: string | number): Promise<void> {
    const nextSeed = String(seed ?? this.deps.random.snapshot().seed);
    const clockState = initialClockState(this.deps.clock.mode);
    await this.deps.store.replaceAll(initialSnapshot(nextSeed, clockState));
    this.deps.clock.restore(clockState);
    this.deps.random.restore({ seed: nextSeed, counter: 0 });
    this.telemetry.clear();
    this.windows.clear();
    this.scheduler.rebuild();
    this.monitorIndex.rebuild();
  }

  /** GET /sim/snapshot: the whole state, clock included, as one JSON document (a SimulatorSnapshot), in chunks of bytes. */
  exportSnapshot(): Buffer[] {
    const head = `{"format":"understudy-snapshot","version":1,"clock":${JSON.stringify({ now: this.deps.clock.nowIso(), mode: this.deps.clock.mode })},"store":`;
    return this.deps.store.snapshotChunks(head, '}');
  }

  /**
   * PUT /sim/snapshot: replaces the whole state with an exported one, durably.
   * The document is checked first (shape and the ledger invariant); a bad one
   * changes nothing.
   */
  async importSnapshot(doc: SimulatorSnapshot): Promise<void> {
    if (doc?.format !== 'understudy-snapshot' || doc.version !== 1 || !doc.store || doc.store.format !== 'understudy-store') {
      throw errors.invalidInput('body: not an understudy snapshot (format "understudy-snapshot", version 1, with a store).');
    }
    const nowMs = Date.parse(doc.clock?.now ?? '');
    if (!Number.isFinite(nowMs)) throw errors.invalidInput("body: 'clock.now' must be an ISO date-time.");
    const collections = doc.store.collections ?? {};
    for (const balance of Object.values(collections.balances ?? {})) {
      try {
        assertBalanceInvariant(balance as never);
      } catch (error) {
        throw errors.invalidInput(`body: ${(error as Error).message}`);
      }
    }
    const random = (doc.store.meta?.random as RandomState | undefined) ?? { seed: '1', counter: 0 };
    const clockState: ClockState = this.deps.clock.mode === 'frozen' ? { mode: 'frozen', valueMs: nowMs } : { mode: 'realtime', valueMs: nowMs - wallNowMs() };
    await this.deps.store.replaceAll({ ...doc.store, meta: { ...doc.store.meta, clock: clockState } });
    this.deps.clock.restore(clockState);
    this.deps.random.restore(random);
    this.telemetry.restore((doc.store.meta?.telemetry as TelemetryState | undefined) ?? { requests: [], keyUsage: {} });
    this.windows.clear();
    this.scheduler.rebuild();
    this.monitorIndex.rebuild();
  }

  /** Stops; what the store could not write at the end (its files still hold every acknowledged change), or null. */
  async close(): Promise<StoreWriteError | null> {
    this.stopTicking?.();
    return this.deps.store.close();
  }
}
