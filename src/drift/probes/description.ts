import type { Difference } from '../difference.ts';
import { open, stated } from '../decisions.ts';
import type { Exchange } from '../wire.ts';
import { objectOf, type ProbeDef } from './types.ts';

/** The routes of spec part 4 that the description must list (spec 9.2). */
const SPEC_ROUTES = [
  '/v1/buyer/key', '/v1/public/agents', '/v1/public/agents/{listingId}', '/v1/solana-custody/catalog', '/v1/solana-custody/quotes',
  '/v1/solana-custody/quotes/{id}/accept', '/v1/solana-custody/runs/{id}/billing', '/v1/custody/catalog', '/v1/custody/quotes',
  '/v1/custody/quotes/{id}/accept', '/v1/custody/runs/{id}/billing', '/v1/runs/{id}', '/v1/runs/{id}/cancel', '/v1/runs/{id}/export',
  '/v1/runs/{id}/receipt', '/v1/monitors', '/v1/monitors/{id}', '/v1/monitors/{id}/stop', '/v1/notifications', '/v1/notifications/{id}/ack',
  '/v1/openapi.json', '/v1/rehearsal/catalog', '/v1/rehearsal/quotes', '/v1/rehearsal/quotes/{id}/accept', '/v1/rehearsal/runs/{id}/billing',
];

/** Every value the spec lists in an enumeration (2.3, 2.8, 2.11, 2.13, 2.15, 3.4, 4.1, 4.10–4.12): a description enum of these words is the spec's. */
const SPEC_WORDS = new Set(
  [
    'catalog:read quotes:write runs:read runs:cancel billing:read monitors:read monitors:write sim local_custody solana_sol solana_usdc active expired revoked',
    'queued running succeeded partial failed cancelled reserved pending settled expired complete_only canonical_metadata paused stopped exhausted',
    'monitor.event monitor.event.retracted retracted ethereum base chainx solana first-party independent reviewed any true false newest name price',
    'per_run per_monitoring_window read_only proposes_transactions sends_notifications in out none',
  ].join(' ').split(' '),
);

/** Every `enum` in a description, by its JSON pointer. */
function enumsOf(value: unknown, pointer = '', found = new Map<string, string[]>()): Map<string, string[]> {
  const object = objectOf(value);
  if (Array.isArray(value)) value.forEach((item, i) => enumsOf(item, `${pointer}/${i}`, found));
  else if (object) {
    if (Array.isArray(object.enum)) found.set(pointer, object.enum.map(String));
    for (const [name, child] of Object.entries(object)) if (name !== 'enum') enumsOf(child, `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
  }
  return found;
}

/**
 * The description is compared by what the spec says of it (9): OpenAPI 3.1,
 * info version 1.2.0-local, the routes of part 4, and the values of every
 * enumeration both descriptions hold at the same place.
 */
export function compareDescriptions(service: Exchange, simulator: Exchange): Difference[] {
  const differences: Difference[] = [];
  const [a, b] = [objectOf(service.body) ?? {}, objectOf(simulator.body) ?? {}];
  const version = (d: Record<string, unknown>) => String(d.openapi ?? '(absent)').split('.').slice(0, 2).join('.');
  if (version(a) !== version(b)) differences.push({ aspect: 'description', where: 'openapi', service: String(a.openapi), simulator: String(b.openapi), tag: stated('9') });
  const info = (d: Record<string, unknown>) => String(objectOf(d.info)?.version ?? '(absent)');
  if (info(a) !== info(b)) differences.push({ aspect: 'description', where: 'info.version', service: info(a), simulator: info(b), tag: stated('9') });
  const [pathsA, pathsB] = [Object.keys(objectOf(a.paths) ?? {}), Object.keys(objectOf(b.paths) ?? {})];
  for (const route of [...new Set([...pathsA, ...pathsB])].sort()) {
    if (pathsA.includes(route) === pathsB.includes(route)) continue;
    differences.push({ aspect: 'description', where: `paths ${route}`, service: pathsA.includes(route) ? 'listed' : 'absent', simulator: pathsB.includes(route) ? 'listed' : 'absent', tag: SPEC_ROUTES.includes(route) ? stated('9') : open('description') });
  }
  const [enumsA, enumsB] = [enumsOf(a), enumsOf(b)];
  for (const [pointer, values] of enumsA) {
    const other = enumsB.get(pointer);
    if (!other) continue;
    const missing = other.filter((v) => !values.includes(v));
    const extra = values.filter((v) => !other.includes(v));
    if (missing.length === 0 && extra.length === 0) continue;
    const spec = [...missing, ...extra].every((v) => SPEC_WORDS.has(v));
    differences.push({ aspect: 'enum', where: `description ${pointer}`, service: values.join(', '), simulator: other.join(', '), tag: spec ? stated('9') : open('description') });
  }
  return differences;
}

export const DESCRIPTION_PROBE: ProbeDef = {
  id: 'description',
  title: 'GET /v1/openapi.json (without a key)',
  kind: 'keyless read',
  expect: { status: stated('9') },
  request: () => ({ method: 'GET', path: '/v1/openapi.json', keyed: false }),
  compare: compareDescriptions,
};
