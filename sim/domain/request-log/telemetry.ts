import { iso } from '../context.ts';

/**
 * Per-request facts that are not ledger state: the request log (spec 5: route,
 * method, time and status only) and key usage (lastUsedAt, requestsLast24h).
 * They live in memory and are saved with the snapshot at checkpoints and
 * shutdown, so a read never pays for a durable write. A crash may lose the
 * latest entries; it never loses or changes money, runs or keys.
 */
export interface RequestLogEntry {
  at: string;
  method: string;
  route: string;
  status: number;
  keyId: string | null;
}

export interface KeyUsage {
  lastUsedAt: string | null;
  /** [minute index, requests in that minute] for the last 24 hours. */
  minutes: Array<[number, number]>;
}

export interface TelemetryState {
  requests: RequestLogEntry[];
  keyUsage: Record<string, KeyUsage>;
}

/** The request log keeps the latest this many entries. */
export const REQUEST_LOG_CAPACITY = 10_000;
const DAY_MINUTES = 24 * 60;

export class Telemetry {
  private requests: RequestLogEntry[] = [];
  private usage = new Map<string, KeyUsage>();

  constructor(state?: TelemetryState) {
    if (state) this.restore(state);
  }

  log(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > REQUEST_LOG_CAPACITY * 1.5) this.requests = this.requests.slice(-REQUEST_LOG_CAPACITY);
  }

  recentRequests(limit = REQUEST_LOG_CAPACITY): RequestLogEntry[] {
    return this.requests.slice(-Math.min(limit, REQUEST_LOG_CAPACITY));
  }

  keyUsed(keyId: string, atMs: number): void {
    const usage = this.usage.get(keyId) ?? { lastUsedAt: null, minutes: [] };
    const minute = Math.floor(atMs / 60_000);
    const last = usage.minutes[usage.minutes.length - 1];
    if (last && last[0] === minute) last[1] += 1;
    else usage.minutes.push([minute, 1]);
    while (usage.minutes.length > 0 && usage.minutes[0][0] <= minute - DAY_MINUTES) usage.minutes.shift();
    usage.lastUsedAt = iso(atMs);
    this.usage.set(keyId, usage);
  }

  /**
   * The instant a request that used the key happened at, when that is later than
   * its arrival (keyUsed): a request's instant is when its handler starts.
   */
  lastUsedAt(keyId: string, atMs: number): void {
    const usage = this.usage.get(keyId);
    if (usage) usage.lastUsedAt = iso(atMs);
  }

  usageOf(keyId: string, nowMs: number): { lastUsedAt: string | null; requestsLast24h: number } {
    const usage = this.usage.get(keyId);
    if (!usage) return { lastUsedAt: null, requestsLast24h: 0 };
    const minute = Math.floor(nowMs / 60_000);
    const requestsLast24h = usage.minutes.filter(([m]) => m > minute - DAY_MINUTES).reduce((s, [, n]) => s + n, 0);
    return { lastUsedAt: usage.lastUsedAt, requestsLast24h };
  }

  snapshot(): TelemetryState {
    return { requests: this.recentRequests(), keyUsage: Object.fromEntries(this.usage) };
  }

  restore(state: TelemetryState): void {
    this.requests = [...(state.requests ?? [])];
    this.usage = new Map(Object.entries(state.keyUsage ?? {}).map(([k, v]) => [k, { lastUsedAt: v.lastUsedAt, minutes: v.minutes.map(([m, n]) => [m, n] as [number, number]) }]));
  }

  clear(): void {
    this.requests = [];
    this.usage.clear();
  }
}
