/** The rows of one group, as a list threaded through the table's row numbers (oldest first). */
interface GroupList {
  key: string;
  /** Its index in RowGroups.lists (stored per row, plus one). */
  number: number;
  head: number;
  tail: number;
}

const NONE = -1;

/**
 * The groups of a grouped collection's rows (RowTable), by row number: per row
 * its id, its group's number and its neighbours in the group, in arrays indexed
 * by row number, rather than a map from id to group and a Set per group (a day
 * of monitors archives tens of thousands of grouped rows, each kept for as long
 * as the process runs). A group lists its rows oldest first; an empty group is forgotten.
 */
export class RowGroups {
  private ids: Array<string | undefined> = [];
  /** Per row: its group's number plus one (0: in no group). */
  private readonly groupOf: number[] = [];
  private readonly next: number[] = [];
  private readonly prev: number[] = [];
  private readonly groups = new Map<string, GroupList>();
  private readonly lists: Array<GroupList | undefined> = [];
  private freeLists: number[] = [];

  /** A new row `n` with `id`, in no group yet. */
  add(n: number, id: string): void {
    this.ids[n] = id;
    this.groupOf[n] = 0;
  }

  /** Row `n` is deleted: out of its group, and its number free. */
  remove(n: number): void {
    this.move(n, null);
    this.ids[n] = undefined;
  }

  keyOf(n: number): string | null {
    const number = this.groupOf[n];
    return number === 0 ? null : this.lists[number - 1]!.key;
  }

  /** Ids in group `key`, oldest first. */
  *idsOf(key: string): IterableIterator<string> {
    const list = this.groups.get(key);
    for (let n = list?.head ?? NONE; n !== NONE; n = this.next[n]) yield this.ids[n]!;
  }

  /** Moves row `n` to the end of group `key` unless it is in it already (null: out of every group). */
  move(n: number, key: string | null): void {
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
}
