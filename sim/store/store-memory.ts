import { pointerLength, type RowArchive, type RowPointer } from './row-archive.ts';
import { RowTable, type Slot } from './row-table.ts';
import type { Row, StoreLayout } from './store-types.ts';
import { ROWS_PER_TURN } from './turns.ts';

const RECENTLY_READ_ROWS = 4096;

/**
 * What the store holds in memory: every collection's rows (or pointers into the
 * archive), the meta values and the sequence number of the last change, with
 * what a checkpoint needs to know of them (the bytes of the archive still
 * pointed at, the deletes of archived rows not yet written to it). One object,
 * so that a snapshot import can swap it whole and give it back when its
 * checkpoint fails.
 */
export class StoreMemory {
  tables = new Map<string, RowTable>();
  meta = new Map<string, unknown>();
  seq = 0;
  /** Bytes of the archive that current pointers refer to (the rest is superseded). */
  liveArchiveBytes = 0;
  /** Archived collections' rows deleted since the last checkpoint: their tombstones are due. */
  tombstones: Array<[string, string]> = [];
  /**
   * Archived rows read lately, by pointer (least recently read first): reading a
   * run's events again costs no disk read.
   */
  readonly recentlyRead = new Map<RowPointer, Row>();

  private readonly archived: ReadonlySet<string>;

  constructor(
    private readonly layout: StoreLayout,
    /** The archive pointers refer to (it changes with each rewrite); null before the first checkpoint. */
    private readonly archive: () => RowArchive | null,
    /** Sees every committed write (the store's afterCommit hook). */
    readonly afterCommit: (collection: string, id: string, row: Row | null) => void,
  ) {
    this.archived = new Set(layout.archived);
  }

  isArchived(collection: string): boolean {
    return this.archived.has(collection);
  }

  table(collection: string): RowTable {
    let table = this.tables.get(collection);
    if (!table) this.tables.set(collection, (table = new RowTable(this.layout.grouped[collection] ?? null)));
    return table;
  }

  get(collection: string, id: string): Row | undefined {
    return this.resolve(this.tables.get(collection)?.get(id));
  }

  resolve(slot: Slot | undefined): Row | undefined {
    if (typeof slot !== 'number') return slot;
    let row = this.recentlyRead.get(slot);
    if (row) {
      this.recentlyRead.delete(slot);
    } else {
      row = this.archive()!.read(slot) as Row;
      if (this.recentlyRead.size >= RECENTLY_READ_ROWS) this.recentlyRead.delete(this.recentlyRead.keys().next().value as number);
    }
    this.recentlyRead.set(slot, row);
    return row;
  }

  /** Sets a row's slot (null: deletes it), keeping the count of live archive bytes; `group` as RowTable.set. */
  setSlot(collection: string, id: string, slot: Slot | null, group?: string | null): void {
    const table = this.table(collection);
    const previous = table.get(id);
    if (typeof previous === 'number') this.liveArchiveBytes -= pointerLength(previous);
    if (typeof slot === 'number') this.liveArchiveBytes += pointerLength(slot);
    if (slot === null) table.delete(id);
    else table.set(id, slot, group);
  }

  /** A committed write: the row (null: a delete) replaces the slot, and the hook sees it. */
  applyOp(collection: string, id: string, row: Row | null): void {
    this.setSlot(collection, id, row);
    if (row === null && this.isArchived(collection)) this.tombstones.push([collection, id]);
    this.afterCommit(collection, id, row);
  }

  /**
   * Loads a snapshot's rows and meta (frozen, as every stored row is), as a pass over
   * every row (turns.ts): run whole at open, in turns by an import while serving.
   */
  *fillSteps(collections: Record<string, Record<string, Row>>, meta: Record<string, unknown>, seq: number): Generator<void, void, void> {
    this.meta = new Map(Object.entries(meta));
    let filled = 0;
    for (const [name, rows] of Object.entries(collections)) {
      // Named even when empty, so the set of collections survives a checkpoint.
      this.table(name);
      for (const id of Object.keys(rows)) {
        this.setSlot(name, id, Object.freeze(rows[id]));
        if (++filled % ROWS_PER_TURN === 0) yield;
      }
    }
    this.seq = seq;
  }

  /** Rows in memory and rows in the archive. */
  counts(): { residentRows: number; archivedRows: number } {
    let residentRows = 0;
    let archivedRows = 0;
    for (const table of this.tables.values()) {
      residentRows += table.residentCount;
      archivedRows += table.size - table.residentCount;
    }
    return { residentRows, archivedRows };
  }
}
