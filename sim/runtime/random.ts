import { createHash } from 'node:crypto';
import { customRandom, urlAlphabet } from 'nanoid';

/**
 * The seeded generator: the only source of randomness in the simulator.
 * A one-way ratchet (docs/decisions.md, Threat model): the state starts as a
 * hash of the seed; each step outputs H(state ‖ "out") and moves to
 * H(state ‖ "next"). The store keeps only the current state and the number of
 * steps taken, never the seed, so what a store holds cannot be run backwards
 * to the bytes already drawn (ids, and the key secrets mixed from them), while
 * the same seed and the same draws still give the same bytes on any machine,
 * and a restarted simulator continues the stream instead of repeating it.
 */
export interface RandomState {
  /** The ratchet's current state, 64 hex digits. */
  state: string;
  /** Steps taken since the seed (a position, for diagnosis; it derives nothing). */
  counter: number;
}

const STATE_PATTERN = /^[0-9a-f]{64}$/;
const isCounter = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export const isRandomState = (value: unknown): value is RandomState =>
  typeof value === 'object' && value !== null && STATE_PATTERN.test(String((value as RandomState).state)) && isCounter((value as RandomState).counter);

/** SHA-256 of NUL-separated parts, so that no two part lists hash the same text. */
function digest(...parts: Array<string | Buffer>): Buffer {
  const hash = createHash('sha256');
  parts.forEach((part, i) => {
    if (i > 0) hash.update('\0');
    hash.update(part);
  });
  return hash.digest();
}

/** The state a new store (or a reset) starts from. */
export function ratchetStart(seed: string): RandomState {
  return { state: digest('understudy-ratchet', seed).toString('hex'), counter: 0 };
}

/** What digest() hashes after the state in a step: the NUL separator and the part's name. */
const stepSuffix = (part: 'out' | 'next') => Buffer.concat([Buffer.alloc(1), Buffer.from(part)]);
const OUT = stepSuffix('out');
const NEXT = stepSuffix('next');

/**
 * The alphabets of the tokens the simulator hands out: 'url' is nanoid's own,
 * exactly the spec's 64 base64url characters (a key secret's), 'hex' a
 * verification challenge's (spec 6.2: a random hex string), 'digits' a chat
 * destination's code.
 */
export type TokenAlphabet = 'url' | 'hex' | 'digits';
const ALPHABETS: Record<TokenAlphabet, string> = { url: urlAlphabet, hex: '0123456789abcdef', digits: '0123456789' };

/** A position in the stream (SeededRandom.mark). */
export interface RandomMark {
  readonly state: Buffer;
  readonly counter: number;
}

export class SeededRandom {
  private state!: Buffer;
  private counter!: number;

  constructor(state: RandomState) {
    this.restore(state);
  }

  snapshot(): RandomState {
    return { state: this.state.toString('hex'), counter: this.counter };
  }

  restore(state: RandomState): void {
    this.state = Buffer.from(state.state, 'hex');
    this.counter = state.counter;
  }

  /** Steps taken so far: whether a change drew anything (a change that did not has no state to save). */
  get position(): number {
    return this.counter;
  }

  /**
   * Where the stream stands, for rewind(), without encoding the state: a step
   * replaces the state buffer, never writes into it, so holding it is enough.
   */
  mark(): RandomMark {
    return { state: this.state, counter: this.counter };
  }

  rewind(mark: RandomMark): void {
    this.state = mark.state;
    this.counter = mark.counter;
  }

  bytes(length: number): Buffer {
    // Each draw starts on a fresh step, so a draw's bytes depend only on the state the store persists.
    const first = this.step();
    if (length <= first.length) return first.subarray(0, length);
    const blocks = [first];
    for (let have = first.length; have < length; have += first.length) blocks.push(this.step());
    return Buffer.concat(blocks).subarray(0, length);
  }

  /** One step: H(state ‖ NUL ‖ "out") out, H(state ‖ NUL ‖ "next") the new state (digest()'s bytes, in one update each). */
  private step(): Buffer {
    const block = createHash('sha256').update(this.state).update(OUT).digest();
    this.state = createHash('sha256').update(this.state).update(NEXT).digest();
    this.counter += 1;
    return block;
  }

  uuid(): string {
    const b = this.bytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  hex(byteLength: number): string {
    return Buffer.from(this.bytes(byteLength)).toString('hex');
  }

  /**
   * A token of `size` characters of `alphabet`, by nanoid's customRandom fed
   * this stream: each byte nanoid asks for is drawn here (a fresh step per
   * request), so the same seed and the same draws give the same token, and
   * nanoid keeps every character equally likely. `seal` turns the drawn bytes
   * into the ones used, as many (a key secret's are sealed with the sealing key).
   */
  token(alphabet: TokenAlphabet, size: number, seal: (drawn: Buffer) => Uint8Array = (drawn) => drawn): string {
    return customRandom(ALPHABETS[alphabet], size, (count) => seal(this.bytes(count)))();
  }

  /** An integer in [0, bound). */
  int(bound: number): number {
    return this.bytes(4).readUInt32BE(0) % bound;
  }
}
