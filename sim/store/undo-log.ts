import type { JournalOp } from './journal-format.ts';
import type { RowPointer } from './row-archive.ts';
import type { Slot } from './row-table.ts';
import type { StoreMemory } from './store-memory.ts';

/**
 * How to take back one journal line's changes, kept until the line is on disk:
 * each row's slot before it (and its group, for an archived row), each meta
 * value before it, and the sequence number before it.
 */
interface Undo {
  seq: number;
  rows: Array<[collection: string, id: string, previous: Slot | undefined, group: string | undefined]>;
  meta: Array<[key: string, had: boolean, previous: unknown]>;
}

/**
 * The changes applied to memory whose journal lines are not on disk yet, oldest
 * first, one per line: when the disk refuses lines, their changes are taken
 * back, so memory never holds what the files do not.
 */
export class UndoLog {
  private pending: Undo[] = [];

  /** Applies one change (the next sequence number) to `memory`, remembering how to take it back. */
  apply(memory: StoreMemory, ops: JournalOp[], metaOps: Array<[string, unknown]>): void {
    const undo: Undo = { seq: memory.seq, rows: [], meta: [] };
    memory.seq += 1;
    for (const [collection, id, row] of ops) {
      const table = memory.table(collection);
      const previous = table.get(id);
      undo.rows.push([collection, id, previous, typeof previous === 'number' ? table.groupKeyOf(id) : undefined]);
      memory.applyOp(collection, id, row);
    }
    for (const [key, value] of metaOps) {
      undo.meta.push([key, memory.meta.has(key), memory.meta.get(key)]);
      memory.meta.set(key, value);
    }
    this.pending.push(undo);
  }

  /** The oldest `count` lines are on disk: their changes stay. */
  durable(count: number): void {
    this.pending.splice(0, count);
  }

  /**
   * The journal refused its last `count` lines (every line not on disk): their
   * changes are undone, newest first. The hooks see each row go back, as they
   * saw it change.
   */
  rollBack(memory: StoreMemory, count: number): void {
    const undone = this.pending.splice(this.pending.length - count, count);
    for (let i = undone.length - 1; i >= 0; i -= 1) {
      const { seq, rows, meta } = undone[i];
      for (const [key, had, previous] of meta) {
        if (had) memory.meta.set(key, previous);
        else memory.meta.delete(key);
      }
      for (let j = rows.length - 1; j >= 0; j -= 1) {
        const [collection, id, previous, group] = rows[j];
        memory.setSlot(collection, id, previous ?? null, group);
        memory.afterCommit(collection, id, previous === undefined ? null : memory.resolve(previous)!);
      }
      memory.seq = seq;
    }
  }

  /** The archive was rewritten: slots to give back that pointed into the old one point into the new one. */
  relocate(relocated: ReadonlyMap<RowPointer, Slot>): void {
    for (const undo of this.pending) {
      for (const entry of undo.rows) if (typeof entry[2] === 'number') entry[2] = relocated.get(entry[2]) ?? entry[2];
    }
  }
}
