import { createHash, createHmac } from 'node:crypto';

/**
 * The store's sealing key: keyed material that never enters the store files or
 * a snapshot (it lives in `PATH.secrets`; docs/decisions.md, Threat model).
 * Signing secrets are HMACs of it, and key secrets HMACs of it over the
 * generator's bytes, so a store handed to someone else lets them recompute
 * neither. A new store's key is a hash of its seed: the same seed gives the same
 * key, hence the same secrets and the same bytes everywhere.
 */
export class SealingKey {
  private derived = new Map<string, string>();

  constructor(private key: string) {}

  static fromSeed(seed: string): string {
    return createHash('sha256').update('understudy-sealing\0').update(seed).digest('hex');
  }

  /** The text kept in `PATH.secrets`. */
  get text(): string {
    return this.key;
  }

  replace(key: string): void {
    this.key = key;
    this.derived.clear();
  }

  /**
   * HMAC-SHA256 keyed with the sealing key's text, as stores before the sidecar
   * keyed it, so their destinations' and monitors' secrets stay the same.
   */
  mac(...parts: Array<string | Buffer>): Buffer {
    const hmac = createHmac('sha256', this.key);
    for (const part of parts) hmac.update(part);
    return hmac.digest();
  }

  /** A fixed secret for one purpose (catalog cursors), computed once per key. */
  derive(purpose: string): string {
    let value = this.derived.get(purpose);
    if (value === undefined) this.derived.set(purpose, (value = this.mac(`derived:${purpose}`).toString('hex')));
    return value;
  }
}
