import type { RowPointer } from './row-archive.ts';
import { RowGroups } from './row-groups.ts';
import type { Row } from './store-types.ts';

/** A row in memory, or where it is in the archive. */
export type Slot = Row | RowPointer;

/** In `pointers`: the row is in memory (`resident`). */
const IN_MEMORY = Number.NaN;

/** A row's group: the text of its group field. */
export const groupValue = (row: Row, field: string) => String((row as unknown as Record<string, unknown>)[field] ?? '');

/**
 * One collection's rows by id, oldest first, and (for a grouped collection) by
 * group (RowGroups). Built for the archive: tens of thousands of archived rows
 * each cost memory for as long as the process runs, so an archived row costs
 * one Map entry (id → its row number) and one element of an array of pointers
 * indexed by row number. Rows in memory are kept by row number beside them.
 * Numbers of deleted rows are reused; the order of ids is the Map's.
 */
export class RowTable {
  private readonly numbers = new Map<string, number>();
  private readonly pointers: number[] = [];
  private readonly resident = new Map<number, Row>();
  private freeNumbers: number[] = [];
  private nextNumber = 0;
  private readonly groups: RowGroups | null;

  /** `groupField`: the field whose value names a row's group (null: not grouped). */
  constructor(readonly groupField: string | null) {
    this.groups = groupField === null ? null : new RowGroups();
  }

  get size(): number {
    return this.numbers.size;
  }

  /** Rows held in memory (the rest are archived). */
  get residentCount(): number {
    return this.resident.size;
  }

  get(id: string): Slot | undefined {
    const n = this.numbers.get(id);
    return n === undefined ? undefined : this.slotAt(n);
  }

  /**
   * Sets a row's slot. A row in memory is grouped by its field; an archived one
   * by `group` (its archive line names it), or stays in the group it was in when
   * `group` is undefined.
   */
  set(id: string, slot: Slot, group?: string | null): void {
    let n = this.numbers.get(id);
    if (n === undefined) {
      n = this.freeNumbers.pop() ?? this.newNumber();
      this.numbers.set(id, n);
      this.groups?.add(n, id);
    }
    if (typeof slot === 'number') {
      this.resident.delete(n);
      this.pointers[n] = slot;
    } else {
      this.resident.set(n, slot);
      this.pointers[n] = IN_MEMORY;
    }
    if (this.groups === null) return;
    const key = typeof slot === 'number' ? (group === undefined ? this.groups.keyOf(n) : group) : groupValue(slot, this.groupField!);
    this.groups.move(n, key);
  }

  delete(id: string): void {
    const n = this.numbers.get(id);
    if (n === undefined) return;
    this.groups?.remove(n);
    this.resident.delete(n);
    this.numbers.delete(id);
    this.freeNumbers.push(n);
  }

  /** Ids, oldest first. */
  keys(): IterableIterator<string> {
    return this.numbers.keys();
  }

  /** Every row's slot, oldest first: a plain loop, since the catalog lists every listing on each request. */
  slots(): Slot[] {
    const out: Slot[] = [];
    for (const n of this.numbers.values()) out.push(this.slotAt(n));
    return out;
  }

  /** The rows held in memory, in the order they came into it (a row's id is its key). */
  residentRows(): IterableIterator<Row> {
    return this.resident.values();
  }

  *entries(): IterableIterator<[string, Slot]> {
    for (const [id, n] of this.numbers) yield [id, this.slotAt(n)];
  }

  /** The group a row is in (undefined: none, or not grouped). */
  groupKeyOf(id: string): string | undefined {
    const n = this.numbers.get(id);
    return n === undefined || this.groups === null ? undefined : (this.groups.keyOf(n) ?? undefined);
  }

  /** Ids in one group, oldest first. */
  groupIds(key: string): Iterable<string> {
    return this.groups?.idsOf(key) ?? [];
  }

  private slotAt(n: number): Slot {
    const pointer = this.pointers[n];
    return Number.isNaN(pointer) ? this.resident.get(n)! : pointer;
  }

  private newNumber(): number {
    const n = this.nextNumber;
    this.nextNumber += 1;
    return n;
  }
}
