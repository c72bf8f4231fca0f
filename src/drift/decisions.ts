import table from '../../docs/decisions.json' with { type: 'json' };

/** One choice of docs/decisions.md that answers a "not shown", by its stable id (docs/decisions.json). */
export interface Decision {
  id: string;
  /** The spec part that leaves it open. */
  spec: string;
  /** The entry's opening words in docs/decisions.md. */
  entry: string;
  choice: string;
}

export const DECISIONS: readonly Decision[] = table.entries;

const byId = new Map(DECISIONS.map((d) => [d.id, d]));

/** The decision of an id; an id missing from the table is a bug of the probe set, caught by its test. */
export function decision(id: string): Decision {
  const found = byId.get(id);
  if (!found) throw new Error(`docs/decisions.json has no entry '${id}'`);
  return found;
}

/**
 * Who answers for a difference: the spec (a part states it), or the simulator's
 * choice where the spec is silent (an entry of docs/decisions.md).
 */
export type Tag = { stated: string } | { open: string };

export const stated = (part: string): Tag => ({ stated: part });
export const open = (id: string): Tag => {
  decision(id);
  return { open: id };
};

export function tagText(tag: Tag): string {
  if ('stated' in tag) return `stated by the spec (part ${tag.stated})`;
  return `left open by the spec: the simulator's choice (docs/decisions.md, entry ${tag.open}: "${decision(tag.open).entry}")`;
}
