import { ratchetStart, SeededRandom } from '../runtime/random.ts';
import { FAULT_KINDS, groupOf, type ChaosProfile, type FaultKind } from './profiles.ts';

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
 * secrets the main generator hands out, so a rehearsal's store is the one the
 * same requests without chaos would make. A request whose group the profile
 * names takes exactly one step (32 bytes); the others take none, so a profile
 * that injects nothing (calm) costs a lookup per request.
 */
export class ChaosEngine {
  private current: ChaosProfile | null = null;
  /** Whether the profile in force names a group at all (calm names none). */
  private injects = false;
  private random: SeededRandom;
  private seed: string;
  private decided = 0;

  constructor(defaultSeed: string) {
    this.seed = defaultSeed;
    this.random = new SeededRandom(ratchetStart(`chaos\0${defaultSeed}`));
  }

  /**
   * True while a profile in force can touch a request: the handler checks this first and
   * does nothing else when off. A profile that names no group (calm) is in force, but
   * decides nothing and takes no step of the fault stream, so it is off here.
   */
  get on(): boolean {
    return this.injects;
  }

  /** Sets (or with null, lifts) the profile; the fault stream restarts from the profile's seed. */
  set(profile: ChaosProfile | null, defaultSeed: string = this.seed): void {
    this.current = profile;
    this.injects = profile !== null && Object.keys(profile.groups).length > 0;
    this.seed = profile?.seed ?? defaultSeed;
    this.random = new SeededRandom(ratchetStart(`chaos\0${this.seed}`));
    this.decided = 0;
  }

  view(): ChaosView {
    return { profile: this.current, seed: this.seed, decided: this.decided };
  }

  decide(method: string, route: string): ChaosDecision | null {
    const profile = this.current;
    if (profile === null) return null;
    const rates = profile.groups[groupOf(method, route)];
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
