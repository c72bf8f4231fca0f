import { createClock, initialClockState, limiterTime, monotonicMs, signingTime, type ClockMode, type ClockState, type RealTime, type WebhookTime, wallNowMs } from './runtime/clock.ts';
import { isRandomState, SeededRandom, ratchetStart, type RandomState } from './runtime/random.ts';
import { SealingKey } from './runtime/sealing.ts';
import { FileStore, StoreFileError, type Snapshot, type StoreFs, type StoreWriteError } from './store/file-store.ts';
import { STORE_VERSION_REFUSAL } from './store/snapshot-file.ts';
import { readSealingKey, secretsPathOf, writeSealingKey } from './store/secrets-file.ts';
import type { Collections } from './domain/collections.ts';
import { STORE_LAYOUT } from './store/layout.ts';
import { transact } from './domain/context.ts';
import type { ChainDeps } from './domain/chains/index.ts';
import type { Environment } from './domain/keys/index.ts';
import type { Job } from './domain/jobs/index.ts';
import { Scheduler, type Advanced, type SchedulerOptions } from './domain/jobs/index.ts';
import { MonitorIndex } from './domain/chains/index.ts';
import { Telemetry, type TelemetryState } from './domain/keys/index.ts';
import { RollingWindows } from './domain/keys/index.ts';
import { assertBalanceInvariant } from './domain/quotes/index.ts';
import { buildListingFixtures } from '../fixtures/listings/index.ts';
import { registerJobHandlers } from './domain/job-handlers.ts';
import { sendWebhook, type WebhookSender } from './runtime/webhook-sender.ts';
import { errors } from './domain/errors.ts';
import { checkSnapshotSteps } from './domain/snapshot-check.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

const CLOCK_MODES: readonly ClockMode[] = ['realtime', 'frozen'];

/** The domain's dependencies with the store as the file store it is here (the domain sees only its port). */
export type SimulatorDeps = Omit<ChainDeps, 'store'> & { store: FileStore<Collections> };

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
  /** serve --webhook-time: webhook attempts signed with the real time they are sent ('wall', the default) or simulated time. */
  webhookTime?: WebhookTime;
  limits?: boolean;
  controlToken?: string | null;
  /** Outbound webhook POSTs (tests may substitute a recorder). */
  send?: WebhookSender;
  /**
   * Real time for the rate windows (docs/decisions.md, Limits); monotonic by
   * default. Scenario runs pass one that stands still, tests one they move.
   */
  realTime?: RealTime;
  /** The runaway bound of one advance (sim/domain/jobs/scheduler.ts); tests lower it. */
  maxJobsPerAdvance?: number;
  /** The files the store writes go through (tests hand in a disk that fills up). */
  storeFs?: StoreFs;
}

/** A new store's contents: the catalog fixtures and the generator's first state (never the seed itself); no accounts. */
export function initialSnapshot(seed: string, clock: ClockState): Snapshot {
  const listings: Record<string, Collections['listings']> = {};
  const versions: Record<string, Collections['versions']> = {};
  for (const { listing, version } of buildListingFixtures()) {
    listings[listing.id] = listing;
    versions[version.id] = version;
  }
  return { format: 'understudy-store', version: 1, seq: 0, meta: { random: ratchetStart(seed), clock }, collections: { listings, versions } };
}

/**
 * The simulator without HTTP: store, clock, generator, scheduler, limits and
 * telemetry, wired once. sim/app.ts puts Fastify in front of it.
 */
export class Simulator {
  readonly scheduler: Scheduler;
  readonly telemetry: Telemetry;
  readonly windows: RollingWindows;
  private stopTicking: (() => void) | null = null;

  private constructor(
    readonly deps: SimulatorDeps,
    /** The seed this process was started with or last reset to: the store does not keep it (docs/decisions.md, Threat model). */
    private seed: string,
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
    deps.store.setHooks({
      beforeCommit: (tx) => {
        for (const balance of tx.written('balances')) assertBalanceInvariant(balance);
      },
      afterCommit: (collection, id, row) => {
        if (collection === 'jobs') this.scheduler.observe(row as Job | null);
        else deps.monitorIndex.observe(collection, id, row);
      },
    });
    registerJobHandlers(this.scheduler, deps, send);
  }

  static async open(options: SimulatorOptions): Promise<Simulator> {
    const mode = options.clock ?? 'realtime';
    const seed = String(options.seed ?? 1);
    const secretsPath = secretsPathOf(options.storePath);
    // Read before the store is opened: a file that is not one is refused before anything is written.
    const keptKey = await readSealingKey(secretsPath);
    const { store, created } = await FileStore.open<Collections>(options.storePath, () => initialSnapshot(seed, initialClockState(mode)), STORE_LAYOUT, { fs: options.storeFs });
    // Refused before anything is written beside it (the secrets file below).
    const stored = store.getMeta('random');
    if (!isRandomState(stored)) {
      await store.close();
      throw new StoreFileError(options.storePath, `its generator state (meta.random) is not one this build reads. ${STORE_VERSION_REFUSAL}`);
    }
    // The store remembers simulated time; a restart continues from it in the mode asked for.
    const saved = store.getMeta<ClockState>('clock') ?? initialClockState(mode);
    const savedNow = saved.mode === 'frozen' ? saved.valueMs : wallNowMs() + saved.valueMs;
    const clock = createClock(mode === 'frozen' ? { mode, valueMs: savedNow } : { mode, valueMs: Math.max(0, savedNow - wallNowMs()) });
    // A new store's key is its seed's (a PATH.secrets left by an earlier store at this path is
    // replaced). An existing store without its PATH.secrets (a shared copy) gets this seed's.
    const sealing = new SealingKey(created ? SealingKey.fromSeed(seed) : (keptKey ?? SealingKey.fromSeed(seed)));
    if (sealing.text !== keptKey) await writeSealingKey(secretsPath, sealing.text);
    const random = new SeededRandom(stored);
    // Blocks holding chain logs and reported monitor events, kept in memory (sim/domain/chains/monitor-index.ts).
    const deps: SimulatorDeps = { clock, signingTime: signingTime(clock, options.webhookTime ?? 'wall'), random, sealing, store, env: options.env ?? 'test', monitorIndex: new MonitorIndex(store) };
    for (const balance of store.all('balances')) assertBalanceInvariant(balance);
    return new Simulator(deps, seed, created, options.limits ?? true, options.controlToken ?? null, options.send ?? sendWebhook, options.realTime ?? monotonicMs, {
      maxJobsPerAdvance: options.maxJobsPerAdvance,
    });
  }

  /** Runs whatever is due at the current simulated time (realtime: since the last request or tick). */
  catchUp(): Promise<Advanced> {
    // While an import replaces the state, what falls due runs against the new one, after it.
    if (this.deps.store.isReplacing) return Promise.resolve({ reachedMs: this.deps.clock.now(), processed: [] });
    return this.scheduler.advanceTo(() => this.deps.clock.now());
  }


  clockView(): { now: string; mode: ClockMode } {
    return { now: this.deps.clock.nowIso(), mode: this.deps.clock.mode };
  }

  /**
   * POST /sim/clock/advance: to an instant (never back), by seconds from this
   * request's instant, or to the next due job; answers the instant reached, not
   * a later read (in realtime mode time moves on while answering).
   */
  async advanceClock(to: { to: string } | { seconds: number } | { next: true }): Promise<{ now: string; processed: Advanced['processed'] }> {
    let advanced: Advanced;
    if ('to' in to) {
      const toMs = Date.parse(to.to);
      if (toMs < this.deps.clock.now()) throw errors.invalidInput(`body: 'to' (${to.to}) is before the current simulated time ${this.deps.clock.nowIso()}; the clock only moves forward.`);
      advanced = await this.advance({ toMs });
    } else if ('seconds' in to) advanced = await this.advance({ seconds: to.seconds, from: this.deps.clock.now() });
    else advanced = await this.advance({ next: true });
    return { now: new Date(advanced.reachedMs).toISOString(), processed: advanced.processed };
  }

  recentRequests(limit?: number) {
    return this.telemetry.recentRequests(limit);
  }

  /** The store's layout (docs/decisions.md, store layout). */
  storeFigures() {
    return this.deps.store.figures();
  }

  /** A checkpoint on demand: what runs by itself every 50,000 journal lines and at shutdown. */
  async checkpoint() {
    await this.deps.store.checkpoint();
    return this.deps.store.figures();
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

  /** A reset is a new store of `seed` (or of the seed this process last had): same generator, same sealing key. */
  async reset(seed?: string | number): Promise<void> {
    const nextSeed = String(seed ?? this.seed);
    const clockState = initialClockState(this.deps.clock.mode);
    await this.deps.store.replaceAll(initialSnapshot(nextSeed, clockState));
    const sealingKey = SealingKey.fromSeed(nextSeed);
    if (sealingKey !== this.deps.sealing.text) {
      await writeSealingKey(secretsPathOf(this.deps.store.path), sealingKey);
      this.deps.sealing.replace(sealingKey);
    }
    this.seed = nextSeed;
    this.deps.clock.restore(clockState);
    this.deps.random.restore(ratchetStart(nextSeed));
    this.telemetry.clear();
    this.windows.clear();
    this.scheduler.rebuild();
    this.deps.monitorIndex.rebuild();
  }

  /** GET /sim/snapshot: the whole state, clock included, as one JSON document (a SimulatorSnapshot), in chunks of bytes. */
  exportSnapshot(): Buffer[] {
    const head = `{"format":"understudy-snapshot","version":1,"clock":${JSON.stringify({ now: this.deps.clock.nowIso(), mode: this.deps.clock.mode })},"store":`;
    return this.deps.store.snapshotChunks(head, '}');
  }

  /**
   * PUT /sim/snapshot: replaces the whole state with an exported one, durably.
   * The whole document is checked first (sim/domain/snapshot-check.ts); a bad
   * one changes nothing. The sealing key stays this simulator's: an import
   * brings state, never keyed material (a document carrying a sealing key is
   * refused), so the imported destinations and monitors
   * sign with secrets nobody was shown (docs/decisions.md, Threat model).
   * `ownExport`: the document is this simulator's own export, parsed afresh (the
   * library's starting state, imported by every reset()), so the check is skipped.
   */
  async importSnapshot(doc: SimulatorSnapshot, { ownExport = false } = {}): Promise<void> {
    // In steps, with a turn of the event loop after each: other requests are answered meanwhile.
    if (!ownExport) for (const _ of checkSnapshotSteps(doc, { jobKinds: this.scheduler.kinds(), clockModes: CLOCK_MODES })) await nextTurn();
    const nowMs = Date.parse(doc.clock.now);
    const random = doc.store.meta.random;
    if (!isRandomState(random)) throw errors.invalidInput("body.store.meta.random: required: the generator's state ({ state: 64 lowercase hex digits, counter }).");
    const clockState: ClockState = this.deps.clock.mode === 'frozen' ? { mode: 'frozen', valueMs: nowMs } : { mode: 'realtime', valueMs: nowMs - wallNowMs() };
    // What lives beside the store follows the new state in the step it goes into service.
    await this.deps.store.replaceAll({ ...doc.store, meta: { ...doc.store.meta, random, clock: clockState } }, () => {
      this.deps.clock.restore(clockState);
      this.deps.random.restore(random);
      this.telemetry.restore((doc.store.meta?.telemetry as TelemetryState | undefined) ?? { requests: [], keyUsage: {} });
      this.windows.clear();
      this.scheduler.rebuild();
      this.deps.monitorIndex.rebuild();
    });
  }

  /** Stops; what the store could not write at the end (its files still hold every acknowledged change), or null. */
  async close(): Promise<StoreWriteError | null> {
    this.stopTicking?.();
    return this.deps.store.close();
  }
}

/** What the control API (contract section 2) does to the simulator as a whole. */
export type SimulatorControl = Pick<Simulator, 'reset' | 'clockView' | 'advanceClock' | 'recentRequests' | 'exportSnapshot' | 'importSnapshot' | 'storeFigures' | 'checkpoint'>;

