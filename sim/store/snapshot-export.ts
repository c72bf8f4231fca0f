import type { RowArchive } from './row-archive.ts';
import type { StoreMemory } from './store-memory.ts';
import type { Row, Snapshot } from './store-types.ts';

/** Characters per chunk of an exported snapshot. */
const EXPORT_CHUNK = 1 << 20;

/**
 * The text of `JSON.stringify(snapshotOf(...))`, built without parsing archived
 * rows (their archived text is their JSON) and handed out as chunks of bytes, so
 * that exporting a large store needs about its size in memory rather than
 * several times that in objects. Built in one synchronous pass: one consistent state.
 */
export function snapshotChunks(memory: StoreMemory, archive: RowArchive | null, meta: Record<string, unknown>, prefix = '', suffix = ''): Buffer[] {
  const chunks: Buffer[] = [];
  let parts: string[] = [];
  let pending = 0;
  const push = (text: string) => {
    parts.push(text);
    pending += text.length;
    if (pending < EXPORT_CHUNK) return;
    chunks.push(Buffer.from(parts.join('')));
    parts = [];
    pending = 0;
  };
  push(`${prefix}{"format":"understudy-store","version":1,"seq":${memory.seq},"meta":${JSON.stringify(meta)},"collections":{`);
  let collectionSeparator = '';
  for (const [name, table] of memory.tables) {
    push(`${collectionSeparator}${JSON.stringify(name)}:{`);
    collectionSeparator = ',';
    let rowSeparator = '';
    for (const [id, slot] of table.entries()) {
      push(`${rowSeparator}${JSON.stringify(id)}:${typeof slot === 'number' ? archive!.rowText(slot) : JSON.stringify(slot)}`);
      rowSeparator = ',';
    }
    push('}');
  }
  push(`}}${suffix}`);
  chunks.push(Buffer.from(parts.join('')));
  return chunks;
}

/** The whole state as one document, archived rows read back. */
export function snapshotOf(memory: StoreMemory, meta: Record<string, unknown>): Snapshot {
  const collections: Snapshot['collections'] = {};
  for (const [name, table] of memory.tables) {
    const rows: Record<string, Row> = {};
    for (const [id, slot] of table.entries()) rows[id] = memory.resolve(slot)!;
    collections[name] = rows;
  }
  return { format: 'understudy-store', version: 1, seq: memory.seq, meta, collections };
}
