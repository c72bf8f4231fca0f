import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowTable, type Slot } from '../../sim/store/row-table.ts';

/**
 * RowTable keeps rows by number in typed arrays to save memory; the store relies
 * on it behaving exactly like the Maps and Sets it replaced: ids in the order
 * first set (a delete then set puts an id last), a group's ids in the order they
 * joined it (a row staying in its group keeps its place), an archived row set
 * without a group staying in its group. Checked against that plain model over
 * random sequences of writes, pointer moves and deletes.
 */
type Op = { kind: 'row'; id: string; group: string } | { kind: 'pointer'; id: string; pointer: number; group: string | null | undefined } | { kind: 'delete'; id: string };

class Model {
  slots = new Map<string, Slot>();
  memberOf = new Map<string, string>();
  groups = new Map<string, Set<string>>();

  apply(op: Op): void {
    if (op.kind === 'delete') {
      this.slots.delete(op.id);
      return this.move(op.id, null);
    }
    if (op.kind === 'row') {
      this.slots.set(op.id, { id: op.id, owner: op.group } as Slot);
      return this.move(op.id, op.group);
    }
    this.slots.set(op.id, op.pointer);
    this.move(op.id, op.group === undefined ? (this.memberOf.get(op.id) ?? null) : op.group);
  }

  private move(id: string, key: string | null): void {
    const current = this.memberOf.get(id);
    if (current === key) return;
    if (current !== undefined) {
      this.groups.get(current)!.delete(id);
      if (this.groups.get(current)!.size === 0) this.groups.delete(current);
      this.memberOf.delete(id);
    }
    if (key === null) return;
    if (!this.groups.has(key)) this.groups.set(key, new Set());
    this.groups.get(key)!.add(id);
    this.memberOf.set(id, key);
  }
}

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const groups = fc.constantFrom('m1', 'm2', 'm3');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('row' as const), id: ids, group: groups }),
  fc.record({ kind: fc.constant('pointer' as const), id: ids, pointer: fc.integer({ min: 0, max: 2 ** 50 }), group: fc.option(fc.option(groups, { nil: null }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('delete' as const), id: ids }),
);

describe('RowTable', () => {
  it('holds the same ids, slots, order and groups as maps and sets would, whatever the writes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const table = new RowTable('owner');
        const model = new Model();
        for (const o of ops) {
          if (o.kind === 'delete') table.delete(o.id);
          else if (o.kind === 'row') table.set(o.id, { id: o.id, owner: o.group } as Slot);
          else table.set(o.id, o.pointer, o.group);
          model.apply(o);
          expect([...table.entries()]).toEqual([...model.slots]);
          expect(table.size).toBe(model.slots.size);
          expect(table.residentCount).toBe([...model.slots.values()].filter((s) => typeof s !== 'number').length);
          for (const g of ['m1', 'm2', 'm3']) expect([...table.groupIds(g)]).toEqual([...(model.groups.get(g) ?? [])]);
          for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) expect(table.groupKeyOf(id)).toBe(model.memberOf.get(id));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('an ungrouped table keeps order and slots, and answers no group', () => {
    const table = new RowTable(null);
    table.set('x', 5 * 2 ** 21 + 7);
    table.set('y', { id: 'y' } as Slot);
    table.delete('x');
    table.set('x', { id: 'x' } as Slot);
    table.set('y', 9);
    expect([...table.entries()]).toEqual([
      ['y', 9],
      ['x', { id: 'x' }],
    ]);
    expect(table.groupKeyOf('x')).toBeUndefined();
    expect([...table.groupIds('')]).toEqual([]);
  });
});
