import { open, stated, type Tag } from './decisions.ts';
import type { Difference } from './difference.ts';
import type { AnswerKind, FieldRule } from './spec-fields.ts';
import { nameOf, parentOf, type PathShape, type Shape } from './shape.ts';

const list = (values: Iterable<string>) => [...values].sort().join(', ') || '(none)';
const describe = (node: PathShape | undefined) => (node ? `present (${list(node.types)}${node.forms.size ? `; ${list(node.forms)}` : ''})` : 'absent');

/**
 * A path can be compared only where both sides hold its container: an object
 * at its parent, or an array with at least one item (an empty list on one side
 * says nothing about the fields of its items).
 */
function comparable(path: string, service: Shape, simulator: Shape): boolean {
  if (path === '') return false;
  const parent = parentOf(path);
  if (parent === '' && !path.endsWith('[]')) return true;
  const container = path.endsWith('[]') ? 'array' : 'object';
  return [service, simulator].every((shape) => {
    const node = shape.get(parent);
    return node !== undefined && node.types.has(container) && (container === 'object' || node.items > 0);
  });
}

/** Who answers for a field's presence: the spec when it requires the field, else the simulator's choice. */
function presenceTag(kind: AnswerKind, rule: FieldRule | undefined): Tag {
  if (!rule) return open(kind.otherFields);
  return rule.required ? stated(rule.part) : open('optional-fields');
}

const allowed = (rule: FieldRule, type: string) => rule.types.includes(type as never) || (type === 'integer' && rule.types.includes('number'));

/**
 * Compares two shapes of one kind of answer: fields present on one side only
 * (a field named differently on each side is reported once, as renamed), JSON
 * types, the forms of ids, times, hashes and amounts, and enum values. Where
 * the spec gives a field's types, data that differs within them is not a
 * difference (one listing has a null where another has an object).
 */
export function compareShapes(kind: AnswerKind, service: Shape, simulator: Shape): Difference[] {
  const differences: Difference[] = [];
  const onlyService: string[] = [];
  const onlySimulator: string[] = [];
  const paths = [...new Set([...service.keys(), ...simulator.keys()])].sort();
  for (const path of paths) {
    if (!comparable(path, service, simulator)) continue;
    const [a, b] = [service.get(path), simulator.get(path)];
    if (!a) onlySimulator.push(path);
    else if (!b) onlyService.push(path);
    else differences.push(...compareNode(kind, path, a, b));
  }
  // A field missing on one side and one extra on the other, in the same object with the same types: one renamed field.
  for (const path of onlySimulator) {
    const rule = kind.fields[path];
    const twin = onlyService.find((other) => parentOf(other) === parentOf(path) && list(service.get(other)!.types) === list(simulator.get(path)!.types));
    if (twin) {
      onlyService.splice(onlyService.indexOf(twin), 1);
      differences.push({ aspect: 'field', where: path, service: `named '${nameOf(twin)}'`, simulator: `named '${nameOf(path)}'`, tag: presenceTag(kind, rule) });
    } else differences.push({ aspect: 'field', where: path, service: 'absent', simulator: describe(simulator.get(path)), tag: presenceTag(kind, rule) });
  }
  for (const path of onlyService) differences.push({ aspect: 'field', where: path, service: describe(service.get(path)), simulator: 'absent', tag: presenceTag(kind, kind.fields[path]) });
  return differences;
}

function compareNode(kind: AnswerKind, path: string, a: PathShape, b: PathShape): Difference[] {
  const rule = kind.fields[path];
  const differences: Difference[] = [];
  const push = (aspect: Difference['aspect'], service: string, simulator: string, tag: Tag) => differences.push({ aspect, where: path, service, simulator, tag });
  if (rule) {
    const outside = (node: PathShape) => [...node.types].filter((t) => !allowed(rule, t));
    if (outside(a).length > 0 || outside(b).length > 0) push('type', list(a.types), list(b.types), stated(rule.part));
    if (rule.form) {
      const wrong = (node: PathShape) => [...node.forms].some((f) => f !== rule.form);
      if (wrong(a) || wrong(b)) push('form', list(a.forms), list(b.forms), stated('2.1'));
    }
    if (rule.enum) {
      const unknown = (node: PathShape) => [...node.values].filter((v) => !rule.enum!.includes(v));
      if (unknown(a).length > 0 || unknown(b).length > 0) push('enum', list(a.values), list(b.values), stated(rule.part));
      else if (rule.sameValues && list(a.values) !== list(b.values)) push('enum', list(a.values), list(b.values), stated(rule.part));
    }
    return differences;
  }
  if (list(a.types) !== list(b.types)) push('type', list(a.types), list(b.types), open(kind.otherFields));
  else if (list(a.forms) !== list(b.forms)) push('form', list(a.forms), list(b.forms), open(kind.otherFields));
  return differences;
}
