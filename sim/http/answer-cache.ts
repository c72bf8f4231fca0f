/** The content type of an answer sent as already-serialized JSON. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Serialized answers, each kept with the state it was built from (a frozen store
 * row, or a catalog generation) and reused while that state is the very same
 * object. Kept as UTF-8 bytes, so sending one again costs no encoding. Bounded:
 * when full, the oldest entry goes first.
 */
export class AnswerCache<Source extends object> {
  private entries = new Map<string, { source: Source; body: Buffer }>();

  constructor(private readonly capacity: number) {}

  body(key: string, source: Source, build: () => string): Buffer {
    const cached = this.entries.get(key);
    if (cached !== undefined && cached.source === source) return cached.body;
    const body = Buffer.from(build());
    if (cached === undefined && this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { source, body });
    return body;
  }
}
