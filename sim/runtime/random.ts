import { createHash } from 'node:crypto';

/**
 * The seeded generator: the only source of randomness in the simulator.
 * A SHA-256 counter-mode stream keyed by the seed, so that the same seed and the
 * same sequence of draws give the same ids, secrets and cursors on any machine.
 * The counter is part of the persisted state, so a restarted simulator continues
 * the stream instead of repeating it.
 */
export interface RandomState {
  seed: string;
  counter: number;
}

export class SeededRandom {
  private buffer = Buffer.alloc(0);
  constructor(private state: RandomState) {}

  snapshot(): RandomState {
    return { ...this.state };
  }

  restore(state: RandomState): void {
    this.state = { ...state };
    this.buffer = Buffer.alloc(0);
  }

  bytes(length: number): Buffer {
    // Each draw starts on a fresh block so a draw's bytes depend only on the
    // counter, which is what the store persists.
    const blocks: Buffer[] = [];
    let have = 0;
    while (have < length) {
      const block = createHash('sha256').update(`${this.state.seed}:${this.state.counter}`).digest();
      this.state.counter += 1;
      blocks.push(block);
      have += block.length;
    }
    this.buffer = Buffer.concat(blocks);
    return this.buffer.subarray(0, length);
  }

  uuid(): string {
    const b = Buffer.from(this.bytes(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** base64url text of `byteLength` random bytes (32 bytes give 43 characters). */
  token(byteLength: number): string {
    return Buffer.from(this.bytes(byteLength)).toString('base64url');
  }

  hex(byteLength: number): string {
    return Buffer.from(this.bytes(byteLength)).toString('hex');
  }

  /** An integer in [0, bound). */
  int(bound: number): number {
    return this.bytes(4).readUInt32BE(0) % bound;
  }
}
