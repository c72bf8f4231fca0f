import { open, stated } from '../decisions.ts';
import { AGENT_DETAIL, AGENT_PAGE, CAPABILITIES, KEY, RAIL_CATALOG } from '../spec-fields.ts';
import type { Exchange } from '../wire.ts';
import { objectOf, query, type ProbeDef, type Rail, type SideContext } from './types.ts';

const RAIL_OF: Record<string, Rail> = { local_custody: 'custody', solana_sol: 'solana-custody', solana_usdc: 'solana-custody' };
const EVM_CHAINS = ['ethereum', 'base', 'chainx'];

interface Agent {
  listingId?: unknown;
  name?: unknown;
  chains?: unknown;
  offers?: { profile?: unknown; enabled?: unknown }[];
}
const agentsOf = (answer: Exchange): Agent[] => (answer.status === 200 && Array.isArray(objectOf(answer.body)?.agents) ? (objectOf(answer.body)!.agents as Agent[]) : []);
const accepts = (agent: Agent, profile: string) => Array.isArray(agent.offers) && agent.offers.some((o) => o?.profile === profile && o?.enabled === true);

/** Learns the key: its profile decides the rail (spec 5, "one key, one asset"). */
export function learnKey(ctx: SideContext, answer: Exchange): void {
  const key = objectOf(objectOf(answer.body)?.key);
  if (answer.status !== 200 || !key || typeof key.profile !== 'string') return;
  const rail = RAIL_OF[key.profile] ?? 'custody';
  ctx.key = {
    profile: key.profile,
    assetId: typeof key.assetId === 'string' ? key.assetId : undefined,
    scopes: Array.isArray(key.scopes) ? key.scopes.filter((s): s is string => typeof s === 'string') : [],
    rail,
    otherRail: rail === 'custody' ? 'solana-custody' : 'custody',
  };
}

/** The token research agent of a side: the first token-research listing accepting the key's currency, one named so first. */
export function learnTokenResearch(ctx: SideContext, answer: Exchange): void {
  const candidates = agentsOf(answer).filter((a) => typeof a.listingId === 'string' && (!ctx.key || accepts(a, ctx.key.profile)));
  const found = candidates.find((a) => typeof a.name === 'string' && /token research/i.test(a.name)) ?? candidates[0];
  if (!found) return;
  const chains = Array.isArray(found.chains) ? found.chains.filter((c): c is string => EVM_CHAINS.includes(c as string)) : [];
  ctx.tokenResearch = { listingId: found.listingId as string, chains: chains.length > 0 ? chains : ['ethereum'] };
}

/** Another listing accepting the key's currency, for the result policy it does not offer (spec 3.4). */
export function learnOtherAgent(ctx: SideContext, answer: Exchange): void {
  const found = agentsOf(answer).find((a) => typeof a.listingId === 'string' && a.listingId !== ctx.tokenResearch?.listingId && (!ctx.key || accepts(a, ctx.key.profile)));
  if (found) ctx.otherAgent = { listingId: found.listingId as string };
}

const page = (id: string, title: string, params: (ctx: SideContext) => Record<string, string | number>, learn?: ProbeDef['learn']): ProbeDef => ({
  id,
  title,
  kind: 'read',
  expect: { status: stated('4.1'), answer: AGENT_PAGE },
  request: (ctx) => ({ method: 'GET', path: `/v1/public/agents${Object.keys(params(ctx)).length ? `?${query(params(ctx))}` : ''}`, keyed: true }),
  learn,
});

const walk = (n: number): ProbeDef => ({
  id: `catalog-page-${n}`,
  title: `catalog cursor walk, page ${n}`,
  kind: 'read',
  expect: { status: stated('4.1'), answer: AGENT_PAGE },
  request: (ctx) => {
    if (n > 1 && typeof ctx.cursor !== 'string') return { skip: ctx.cursor === null ? 'the previous page was the last (nextCursor null)' : 'the previous page gave no cursor' };
    return { method: 'GET', path: `/v1/public/agents?${query({ sort: 'name', limit: 2, ...(n > 1 ? { cursor: ctx.cursor as string } : {}) })}`, keyed: true };
  },
  learn: (ctx, answer) => {
    const next = objectOf(answer.body)?.nextCursor;
    ctx.cursor = answer.status === 200 && (typeof next === 'string' || next === null) ? next : undefined;
  },
});

const refusedPage = (id: string, title: string, params: Record<string, string | number>, message?: ProbeDef['expect']['message']): ProbeDef => ({
  id,
  title,
  kind: 'read',
  // Spec 4.1: strict parameters, 400 invalid_input; part 7 words only the cursor's message.
  expect: { status: stated('4.1'), code: stated('7'), ...(message ? { message } : {}) },
  request: () => ({ method: 'GET', path: `/v1/public/agents?${query(params)}`, keyed: true }),
});

/** The reads of the key, the public catalog and the rail catalogs. */
export const CATALOG_PROBES: ProbeDef[] = [
  { id: 'key', title: 'GET /v1/buyer/key', kind: 'read', expect: { status: stated('4'), answer: KEY }, request: () => ({ method: 'GET', path: '/v1/buyer/key', keyed: true }), learn: learnKey },
  page('catalog-first-page', 'catalog, first page, no parameters', () => ({})),
  page('catalog-token-research', 'catalog filtered: token research in the key\'s currency', (ctx) => ({ category: 'token_research', ...(ctx.key ? { profile: ctx.key.profile } : {}), q: 'token research', limit: 50 }), learnTokenResearch),
  page('catalog-by-name', 'catalog filtered by chain, sorted by name', () => ({ chain: 'ethereum', sort: 'name', limit: 5 })),
  page('catalog-by-price', 'catalog filtered (profile, available, reviewed), sorted by price', (ctx) => ({ sort: 'price', ...(ctx.key ? { profile: ctx.key.profile } : {}), available: 'true', review: 'reviewed', limit: 10 }), learnOtherAgent),
  walk(1),
  walk(2),
  walk(3),
  refusedPage('catalog-unknown-parameter', 'catalog with an unknown parameter', { colour: 'blue' }),
  refusedPage('catalog-bad-cursor', 'catalog with a malformed cursor', { cursor: 'not-a-cursor' }, stated('7')),
  refusedPage('catalog-limit-zero', 'catalog with limit 0', { limit: 0 }),
  refusedPage('catalog-limit-over', 'catalog with limit 51', { limit: 51 }),
  {
    id: 'agent-detail',
    title: 'the token research agent\'s detail',
    kind: 'read',
    expect: { status: stated('4'), answer: AGENT_DETAIL },
    request: (ctx) => (ctx.tokenResearch ? { method: 'GET', path: `/v1/public/agents/${ctx.tokenResearch.listingId}`, keyed: true } : { skip: 'no token research listing found in the catalog' }),
  },
  {
    id: 'agent-unknown',
    title: 'an agent listing that does not exist',
    kind: 'read',
    expect: { status: stated('7'), code: open('error-codes'), message: stated('7') },
    request: (ctx) => ({ method: 'GET', path: `/v1/public/agents/${ctx.unknownId}`, keyed: true }),
  },
  {
    id: 'rail-catalog',
    title: 'the key\'s rail catalog',
    kind: 'read',
    expect: { status: stated('4.2'), answer: RAIL_CATALOG },
    request: (ctx) => (ctx.key ? { method: 'GET', path: `/v1/${ctx.key.rail}/catalog`, keyed: true } : { skip: 'the key could not be read' }),
  },
  {
    id: 'other-rail-catalog',
    title: 'the other rail\'s catalog (another payment environment)',
    kind: 'read',
    expect: { status: stated('5'), code: stated('7'), message: stated('7') },
    request: (ctx) => (ctx.key ? { method: 'GET', path: `/v1/${ctx.key.otherRail}/catalog`, keyed: true } : { skip: 'the key could not be read' }),
  },
  { id: 'capabilities', title: 'GET /v1/capabilities', kind: 'read', expect: { status: open('platform-queue'), answer: CAPABILITIES }, request: () => ({ method: 'GET', path: '/v1/capabilities', keyed: true }) },
];
