import { ratchetStart, SeededRandom } from '../runtime/random.ts';
import { FAULT_KINDS, groupOf, type ChaosProfile, type FaultKind, type RouteGroup } from './profiles.ts';

/** What chaos does to one request: at most one fault, and maybe latency before it. */
export interface ChaosDecision {
  fault: FaultKind | null;
  latencyMs: number;
  /** For a rate-limited answer. */
  retryAfterSeconds: number;
  /** For a slow body. */
  slowBodyMs: number;
}

export interface ChaosView {
  profile: ChaosProfile | null;
  seed: string;
  /** Requests decided since the profile was set (the position in the fault stream). */
  decided: number;
}

const UNIT = 2 ** 32;

/**
 * The fault stream. Its own ratchet of the simulator's seeded generator, started
 * from the seed under its own label: the same seed and the same order of /v1
 * requests give the same faults, and drawing faults never shifts the ids and
 * secrets the main generator hands out, so a storm's store is the one the same
 * requests without chaos would make. A request whose group the profile gives rates
 * takes exactly one step (16 bytes) unless the profile's plan decides it.
 */
export class ChaosEngine {
  private current: ChaosProfile | null = null;
  private random: SeededRandom;
  private seed: string;
  private decided = 0;
  /** Requests of each group since the profile was set: what a plan's `nth` counts. */
  private counts = new Map<RouteGroup, number>();

  constructor(defaultSeed: string) {
    this.seed = defaultSeed;
    this.random = new SeededRandom(ratchetStart(`chaos\0${defaultSeed}`));
  }

  /**
   * Whether the profile in force can touch a request. A profile that gives no rates
   * and plans nothing (calm) is in force but decides nothing and takes no step of the
   * fault stream: the hooks do nothing more for a request then.
   */
  get active(): boolean {
    const profile = this.current;
    return profile !== null && (Object.keys(profile.groups).length > 0 || (profile.plan?.length ?? 0) > 0);
  }

  /** Sets (or with null, lifts) the profile; the fault stream and the plan's counts restart. */
  set(profile: ChaosProfile | null, defaultSeed: string = this.seed): void {
    this.current = profile;
    this.seed = profile?.seed ?? defaultSeed;
    this.random = new SeededRandom(ratchetStart(`chaos\0${this.seed}`));
    this.decided = 0;
    this.counts = new Map();
  }

  view(): ChaosView {
    return { profile: this.current, seed: this.seed, decided: this.decided };
  }

  decide(method: string, route: string): ChaosDecision | null {
    const profile = this.current;
    if (profile === null) return null;
    const group = groupOf(method, route);
    if (profile.plan !== undefined) {
      const nth = (this.counts.get(group) ?? 0) + 1;
      this.counts.set(group, nth);
      const planned = profile.plan.find((p) => p.group === group && p.nth === nth);
      if (planned !== undefined) {
        this.decided += 1;
        return { fault: planned.fault, latencyMs: 0, retryAfterSeconds: profile.retryAfterSeconds[0], slowBodyMs: profile.slowBodyMs };
      }
    }
    const rates = profile.groups[group];
    if (!rates) return null;
    const bytes = this.random.bytes(16);
    this.decided += 1;
    const u = (i: number) => bytes.readUInt32BE(i * 4) / UNIT;
    let fault: FaultKind | null = null;
    let edge = 0;
    const pick = u(0);
    for (const kind of FAULT_KINDS) {
      edge += rates[kind] ?? 0;
      if (pick < edge) {
        fault = kind;
        break;
      }
    }
    const latency = rates.latency;
    const latencyMs = latency && u(1) < latency.probability ? latency.minMs + Math.floor(u(2) * (latency.maxMs - latency.minMs + 1)) : 0;
    if (fault === null && latencyMs === 0) return null;
    const [low, high] = profile.retryAfterSeconds;
    return { fault, latencyMs, retryAfterSeconds: low + Math.floor(u(3) * (high - low + 1)), slowBodyMs: profile.slowBodyMs };
  }
}
