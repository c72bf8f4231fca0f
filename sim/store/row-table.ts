import type { RowPointer } from './row-archive.ts';
import type { Row } from './store-types.ts';

/** A row in memory, or where it is in the archive. */
export type Slot = Row | RowPointer;

/** The rows of one group, as a list threaded through the table's row numbers (oldest first). */
interface GroupList {
  key: string;
  /** Its index in RowTable.lists (stored per row, plus one). */
  number: number;
  head: number;
  tail: number;
}

const NONE = -1;
const INITIAL_CAPACITY = 64;

/** A row's group: the text of its group field. */
export const groupValue = (row: Row, field: string) => String((row as unknown as Record<string, unknown>)[field] ?? '');

/**
 * One collection's rows by id, oldest first, and (for a grouped collection) by
 * group. Built for the archive: a day of monitors leaves tens of thousands of
 * archived rows, each of which costs memory for as long as the process runs,
 * so what is kept per row is one Map entry (id → a small row number, which V8
 * holds unboxed) and a few typed-array cells: the pointer (a Float64Array: a
 * pointer is beyond the small-integer range, and as a Map value it would be a
 * boxed number of its own), its group's number and its neighbours in the
 * group. Neither a second map from id to group nor a Set per group is kept.
 * Row numbers of deleted rows are reused; the order of ids is the Map's.
 */
export class RowTable {
  private readonly numbers = new Map<string, number>();
  private ids: Array<string | undefined> = [];
  private resident: Array<Row | undefined> = [];
  private pointers = new Float64Array(INITIAL_CAPACITY);
  /** Per row: its group's number plus one (0: in no group). */
  private groupOf = new Int32Array(INITIAL_CAPACITY);
  private next = new Int32Array(INITIAL_CAPACITY);
  private prev = new Int32Array(INITIAL_CAPACITY);
  private freeNumbers: number[] = [];
  private readonly groups = new Map<string, GroupList>();
  private readonly lists: Array<GroupList | undefined> = [];
  private freeLists: number[] = [];
  private residentRows = 0;

  /** `groupField`: the field whose value names a row's group (null: not grouped). */
  constructor(readonly groupField: string | null) {}

  get size(): number {
    return this.numbers.size;
  }

  /** Rows held in memory (the rest are archived). */
  get residentCount(): number {
    return this.residentRows;
  }

  get(id: string): Slot | undefined {
    const n = this.numbers.get(id);
    return n === undefined ? undefined : this.slotAt(n);
  }

  has(id: string): boolean {
    return this.numbers.has(id);
  }

  /**
   * Sets a row's slot. A row in memory is grouped by its field; an archived one
   * by `group` (its archive line names it), or stays in the group it was in when
   * `group` is undefined.
   */
  set(id: string, slot: Slot, group?: string | null): void {
    let n = this.numbers.get(id);
    if (n === undefined) {
      n = this.freeNumbers.pop() ?? this.ids.length;
      this.grow(n);
      this.ids[n] = id;
      this.groupOf[n] = 0;
      this.numbers.set(id, n);
    } else if (this.resident[n] !== undefined) this.residentRows -= 1;
    if (typeof slot === 'number') {
      this.resident[n] = undefined;
      this.pointers[n] = slot;
    } else {
      this.resident[n] = slot;
      this.residentRows += 1;
    }
    if (this.groupField === null) return;
    const key = typeof slot === 'number' ? (group === undefined ? this.groupKeyAt(n) : group) : groupValue(slot, this.groupField);
    this.regroup(n, key);
  }

  delete(id: string): void {
    const n = this.numbers.get(id);
    if (n === undefined) return;
    if (this.resident[n] !== undefined) this.residentRows -= 1;
    if (this.groupField !== null) this.regroup(n, null);
    this.numbers.delete(id);
    this.ids[n] = undefined;
    this.resident[n] = undefined;
    this.freeNumbers.push(n);
  }

  /** Ids, oldest first. */
  keys(): IterableIterator<string> {
    return this.numbers.keys();
  }

  *entries(): IterableIterator<[string, Slot]> {
    for (const [id, n] of this.numbers) yield [id, this.slotAt(n)];
  }

  /** The group a row is in (undefined: none, or not grouped). */
  groupKeyOf(id: string): string | undefined {
    const n = this.numbers.get(id);
    return n === undefined ? undefined : (this.groupKeyAt(n) ?? undefined);
  }

  /** Ids in one group, oldest first. */
  *groupIds(key: string): IterableIterator<string> {
    const list = this.groups.get(key);
    for (let n = list?.head ?? NONE; n !== NONE; n = this.next[n]) yield this.ids[n]!;
  }

  private slotAt(n: number): Slot {
    return this.resident[n] ?? this.pointers[n];
  }

  private groupKeyAt(n: number): string | null {
    const number = this.groupOf[n];
    return number === 0 ? null : this.lists[number - 1]!.key;
  }

  /** Moves row `n` to the end of group `key` unless it is in it already (null: out of every group). */
  private regroup(n: number, key: string | null): void {
    const current = this.groupOf[n] === 0 ? null : this.lists[this.groupOf[n] - 1]!;
    if (current?.key === key) return;
    if (current) this.unlink(n, current);
    if (key === null) return;
    let list = this.groups.get(key);
    if (!list) {
      const number = this.freeLists.pop() ?? this.lists.length;
      list = { key, number, head: NONE, tail: NONE };
      this.lists[number] = list;
      this.groups.set(key, list);
    }
    this.prev[n] = list.tail;
    this.next[n] = NONE;
    if (list.tail === NONE) list.head = n;
    else this.next[list.tail] = n;
    list.tail = n;
    this.groupOf[n] = list.number + 1;
  }

  private unlink(n: number, list: GroupList): void {
    const before = this.prev[n];
    const after = this.next[n];
    if (before === NONE) list.head = after;
    else this.next[before] = after;
    if (after === NONE) list.tail = before;
    else this.prev[after] = before;
    this.groupOf[n] = 0;
    if (list.head === NONE) {
      this.groups.delete(list.key);
      this.lists[list.number] = undefined;
      this.freeLists.push(list.number);
    }
  }

  /** Makes room for row number `n`. */
  private grow(n: number): void {
    if (n < this.pointers.length) return;
    const capacity = this.pointers.length * 2;
    const widen = <T extends Float64Array | Int32Array>(old: T, fresh: T): T => {
      fresh.set(old);
      return fresh;
    };
    this.pointers = widen(this.pointers, new Float64Array(capacity));
    this.groupOf = widen(this.groupOf, new Int32Array(capacity));
    this.next = widen(this.next, new Int32Array(capacity));
    this.prev = widen(this.prev, new Int32Array(capacity));
  }
}
