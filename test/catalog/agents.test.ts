import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CATEGORIES, CHAINS, OWNERSHIPS, PERMISSIONS, PRICE_STRUCTURES, PROFILES, TOPICS,
  type Listing, type ListingVersion, type Profile,
} from '../../sim/domain/catalog/index.ts';
import { referencePrice } from '../../sim/domain/catalog/index.ts';
import { buildListingFixtures, CREATOR_TEST_LISTING_ID, TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * GET /v1/public/agents and GET /v1/public/agents/{listingId} over HTTP (spec 2.4, 2.5, 2.17, 4.1, 5, 7),
 * every answer checked against the listing fixtures the simulator's store starts from.
 */

const CURSOR_INVALID = 'The catalog page cursor is invalid. Start again from the first page.';
const fixtures = buildListingFixtures();
const listingById = new Map(fixtures.map((f) => [f.listing.id, f.listing]));
const versionById = new Map(fixtures.map((f) => [f.listing.id, f.version]));
const PUBLIC: Listing[] = fixtures.map((f) => f.listing).filter((l) => !l.isCreatorTest && l.active);

type Query = Record<string, string | number>;

function fixtureListing(id: string): Listing {
  const listing = listingById.get(id);
  if (!listing) throw new Error(`the simulator returned a listing id the fixtures do not have: ${id}`);
  return listing;
}

function haystack(l: Listing): string {
  return [l.name, l.description, l.category, ...l.topics].join(' ').toLowerCase();
}

/** Spec 4.1 filters, applied to a fixture listing. */
function fixtureMatches(l: Listing, q: Query): boolean {
  if (q.q !== undefined && q.q !== '' && !haystack(l).includes(String(q.q).toLowerCase())) return false;
  if (q.chain !== undefined && !l.chains.includes(q.chain as never)) return false;
  if (q.ownership !== undefined && l.ownership !== q.ownership) return false;
  if (q.review === 'reviewed' && l.review !== 'reviewed') return false;
  if (q.profile !== undefined && !l.profiles.includes(q.profile as Profile)) return false;
  if (q.available !== undefined && String(l.availability.available) !== q.available) return false;
  if (q.category !== undefined && l.category !== q.category) return false;
  if (q.priceStructure !== undefined && l.priceStructure !== q.priceStructure) return false;
  if (q.permission !== undefined && !l.permissions.some((p) => p.id === q.permission)) return false;
  if (q.topic !== undefined && !l.topics.includes(q.topic as never)) return false;
  return true;
}

const expectedIds = (q: Query) => PUBLIC.filter((l) => fixtureMatches(l, q)).map((l) => l.id).sort();

function url(q: Query): string {
  const params = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
  const text = params.toString();
  return text ? `/v1/public/agents?${text}` : '/v1/public/agents';
}

interface Page {
  agents: Array<Record<string, any>>;
  nextCursor: string | null;
  total: number;
  sort: string;
  environment: Record<string, unknown>;
}

/** Follows nextCursor from the first page to the last. */
async function walk(s: TestSimulator, q: Query, key?: string): Promise<{ pages: Page[]; agents: Page['agents'] }> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const r: { status: number; body: Page } = await s.json<Page>({ url: url(cursor ? { ...q, cursor } : q), key });
    if (r.status !== 200) throw new Error(`page ${pages.length + 1} of ${url(q)} answered ${r.status}: ${JSON.stringify(r.body)}`);
    pages.push(r.body);
    cursor = r.body.nextCursor;
    if (pages.length > 200) throw new Error('the walk does not end');
  } while (cursor !== null);
  return { pages, agents: pages.flatMap((p) => p.agents) };
}

/** The walk's invariants: no duplicates, total on every page equal to the number of agents, last cursor null. */
function expectConsistentWalk(result: { pages: Page[]; agents: Page['agents'] }, q: Query): void {
  const ids = result.agents.map((a) => a.listingId as string);
  expect(new Set(ids).size).toBe(ids.length);
  for (const page of result.pages) expect(page.total).toBe(ids.length);
  expect(result.pages[result.pages.length - 1].nextCursor).toBeNull();
  const limit = Number(q.limit ?? 20);
  result.pages.forEach((page, i) => {
    expect(page.agents.length).toBeLessThanOrEqual(limit);
    if (i < result.pages.length - 1) {
      expect(page.agents.length).toBe(limit);
      expect(typeof page.nextCursor).toBe('string');
      expect((page.nextCursor as string).length).toBeLessThanOrEqual(200);
    }
  });
  expect([...ids].sort()).toEqual(expectedIds(q));
}

/** Reference price of a returned agent, from its offers (rates of sim/domain/catalog/pricing.ts, in micro-USD per unit). */
const MICRO_USD_PER_UNIT: Record<Profile, bigint> = { solana_sol: 150_000_000n, solana_usdc: 1_000_000n, sim: 1_000_000n, local_custody: 3_000_000_000n };
const DECIMALS: Record<Profile, bigint> = { solana_sol: 9n, solana_usdc: 6n, sim: 6n, local_custody: 18n };
function offerReferencePrice(agent: Record<string, any>, profile?: Profile): bigint {
  let best: bigint | null = null;
  for (const offer of agent.offers as Array<{ profile: Profile; pricing: { maximumBuyerDebitAtomic: string } | null }>) {
    if (profile && offer.profile !== profile) continue;
    if (!offer.pricing) continue;
    const micro = (BigInt(offer.pricing.maximumBuyerDebitAtomic) * MICRO_USD_PER_UNIT[offer.profile]) / 10n ** DECIMALS[offer.profile];
    if (best === null || micro < best) best = micro;
  }
  return best ?? 0n;
}

function expectSorted(agents: Page['agents'], sort: string, profile?: Profile): void {
  for (let i = 1; i < agents.length; i++) {
    const [a, b] = [agents[i - 1], agents[i]];
    if (sort === 'newest') expect(fixtureListing(a.listingId).createdAt > fixtureListing(b.listingId).createdAt).toBe(true);
    if (sort === 'name') expect(a.name < b.name).toBe(true);
    if (sort === 'price') {
      const [pa, pb] = [offerReferencePrice(a, profile), offerReferencePrice(b, profile)];
      expect(pa <= pb, `${a.name} (${pa}) before ${b.name} (${pb})`).toBe(true);
    }
  }
}

let s: TestSimulator;
beforeAll(async () => {
  s = await startSimulator();
});
afterAll(async () => {
  await s?.destroy();
});

async function createKey(accountIndex: number, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const r = await s.json({ method: 'POST', url: `/sim/accounts/${s.demo[accountIndex].accountId}/keys`, body });
  expect(r.status).toBe(201);
  return { id: r.body.key.id, secret: r.body.secret };
}

describe('GET /v1/public/agents: the page', () => {
  it('answers the first page with the spec 2.17 wrapper, newest first, 20 agents by default', async () => {
    const r = await s.json<Page>({ url: '/v1/public/agents' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['agents', 'environment', 'nextCursor', 'sort', 'total']);
    expect(r.body.sort).toBe('newest');
    expect(r.body.total).toBe(PUBLIC.length);
    expect(PUBLIC.length).toBeGreaterThan(20);
    expect(r.body.agents).toHaveLength(20);
    expect(typeof r.body.nextCursor).toBe('string');
    expect(r.body.environment).toEqual(expect.any(Object));
    const newest = [...PUBLIC].sort((a, b) => (a.createdAt > b.createdAt ? -1 : 1)).slice(0, 20).map((l) => l.id);
    expect(r.body.agents.map((a) => a.listingId)).toEqual(newest);
  });

  it('shows each agent as a spec 2.4 summary matching its fixture', async () => {
    const { agents } = await walk(s, { limit: 50 });
    expect(agents).toHaveLength(PUBLIC.length);
    for (const agent of agents) {
      const l = fixtureListing(agent.listingId);
      expect(agent.name).toBe(l.name);
      expect(agent.description).toBe(l.description);
      expect(agent.chains).toEqual(l.chains);
      expect(agent.availability).toEqual(l.availability);
      expect(agent.offers.map((o: { profile: string }) => o.profile)).toEqual(l.profiles);
      for (const offer of agent.offers) {
        expect(offer.enabled).toBe(!l.disabledProfiles.includes(offer.profile));
        expect(offer.pricing.maximumBuyerDebitAtomic).toMatch(/^(0|[1-9][0-9]*)$/);
      }
    }
  });

  it('never shows a creator test listing, on any page or filter', async () => {
    expect(listingById.get(CREATOR_TEST_LISTING_ID)?.isCreatorTest).toBe(true);
    const creatorTest = fixtureListing(CREATOR_TEST_LISTING_ID);
    const queries: Query[] = [
      { limit: 50 },
      ...creatorTest.profiles.map((profile) => ({ profile, limit: 50 })),
      { q: creatorTest.name, limit: 50 },
      { category: creatorTest.category, sort: 'price', limit: 7 },
    ];
    for (const q of queries) {
      const { agents } = await walk(s, q);
      expect(agents.map((a) => a.listingId)).not.toContain(CREATOR_TEST_LISTING_ID);
    }
    const total = await s.json<Page>({ url: url({ q: creatorTest.name }) });
    expect(total.body.total).toBe(0);
  });
});

describe('GET /v1/public/agents: every filter of spec 4.1', () => {
  const enumParameters: Array<[string, readonly string[], (agent: Record<string, any>, l: Listing, value: string) => boolean]> = [
    ['chain', CHAINS, (a, l, v) => a.chains.includes(v) && l.chains.includes(v as never)],
    ['ownership', OWNERSHIPS, (a, l, v) => a.ownership === v && l.ownership === v],
    ['review', ['reviewed', 'any'], (_a, l, v) => v === 'any' || l.review === 'reviewed'],
    ['profile', PROFILES, (a, l, v) => a.offers.some((o: { profile: string }) => o.profile === v) && l.profiles.includes(v as Profile)],
    ['available', ['true', 'false'], (a, l, v) => String(a.availability.available) === v && String(l.availability.available) === v],
    ['category', CATEGORIES, (a, l, v) => a.category === v && l.category === v],
    ['priceStructure', PRICE_STRUCTURES, (a, l, v) => a.priceStructure === v && l.priceStructure === v],
    ['permission', PERMISSIONS, (_a, l, v) => l.permissions.some((p) => p.id === v)],
    ['topic', TOPICS, (a, l, v) => a.topics.includes(v) && l.topics.includes(v as never)],
  ];

  for (const [name, values, holds] of enumParameters) {
    it(`${name}: each accepted value answers 200 with exactly the matching agents`, async () => {
      let nonEmpty = 0;
      for (const value of values) {
        const q = { [name]: value, limit: 50 };
        const result = await walk(s, q);
        expectConsistentWalk(result, q);
        for (const agent of result.agents) expect(holds(agent, fixtureListing(agent.listingId), value), `${name}=${value}: ${agent.name}`).toBe(true);
        if (result.agents.length > 0) nonEmpty++;
      }
      // The fixture catalog exercises most values of each filter (and at least two).
      expect(nonEmpty).toBeGreaterThanOrEqual(Math.min(2, values.length));
    });

    it(`${name}: a value outside the enum answers 400 invalid_input naming ${name}`, async () => {
      const r = await s.json({ url: url({ [name]: 'not-a-value' }) });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.message).toContain(name);
    });
  }

  it('review=reviewed excludes every unreviewed listing, and review=any (the default) includes them', async () => {
    const unreviewed = PUBLIC.filter((l) => l.review !== 'reviewed');
    expect(unreviewed.length).toBeGreaterThan(0);
    const reviewed = await walk(s, { review: 'reviewed', limit: 50 });
    const reviewedIds = reviewed.agents.map((a) => a.listingId);
    for (const l of unreviewed) expect(reviewedIds).not.toContain(l.id);
    const any = await walk(s, { review: 'any', limit: 50 });
    expect(any.agents).toHaveLength(PUBLIC.length);
  });

  it('available=false returns only unavailable agents, with their reasons', async () => {
    const { agents } = await walk(s, { available: 'false', limit: 50 });
    expect(agents.length).toBeGreaterThan(0);
    for (const agent of agents) {
      expect(agent.availability.available).toBe(false);
      expect(agent.availability.reasons.length).toBeGreaterThan(0);
    }
  });

  it('combines filters (AND)', async () => {
    const q = { chain: 'ethereum', ownership: 'first-party', profile: 'local_custody', permission: 'read_only', limit: 50 };
    const result = await walk(s, q);
    expectConsistentWalk(result, q);
    expect(result.agents.length).toBeGreaterThan(0);
    expect(result.agents.length).toBeLessThan(PUBLIC.length);
  });

  describe('q', () => {
    it('searches case-insensitively', async () => {
      const lower = await walk(s, { q: 'solana', limit: 50 });
      const upper = await walk(s, { q: 'SoLaNa', limit: 50 });
      expect(lower.agents.length).toBeGreaterThan(0);
      expect(upper.agents.map((a) => a.listingId)).toEqual(lower.agents.map((a) => a.listingId));
      expectConsistentWalk(upper, { q: 'SoLaNa', limit: 50 });
      for (const agent of upper.agents) expect(haystack(fixtureListing(agent.listingId))).toContain('solana');
      // Every listing named after the term is found.
      for (const l of PUBLIC.filter((x) => x.name.toLowerCase().includes('solana'))) {
        expect(upper.agents.map((a) => a.listingId)).toContain(l.id);
      }
    });

    it('finds an agent by its exact name', async () => {
      const target = PUBLIC[PUBLIC.length - 1];
      const r = await s.json<Page>({ url: url({ q: target.name.toUpperCase() }) });
      expect(r.status).toBe(200);
      expect(r.body.agents.map((a) => a.listingId)).toContain(target.id);
    });

    it('returns an empty last page when nothing matches', async () => {
      const r = await s.json<Page>({ url: url({ q: 'zzzz-no-such-agent-zzzz' }) });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ agents: [], total: 0, nextCursor: null });
    });

    it('accepts 100 characters and refuses 101 with 400 invalid_input naming q', async () => {
      const ok = await s.json<Page>({ url: url({ q: 'a'.repeat(100) }) });
      expect(ok.status).toBe(200);
      expect(ok.body.total).toBe(0);
      const r = await s.json({ url: url({ q: 'a'.repeat(101) }) });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.message).toMatch(/\bq\b/);
    });
  });

  describe('limit', () => {
    for (const bad of ['0', '51', 'abc', '-1', '1.5', '']) {
      it(`refuses limit=${JSON.stringify(bad)} with 400 invalid_input naming limit`, async () => {
        const r = await s.json({ url: `/v1/public/agents?limit=${bad}` });
        expect(r.status).toBe(400);
        expect(r.body.error.code).toBe('invalid_input');
        expect(r.body.error.message).toContain('limit');
      });
    }

    it('accepts 1 and 50', async () => {
      const one = await s.json<Page>({ url: url({ limit: 1 }) });
      expect(one.status).toBe(200);
      expect(one.body.agents).toHaveLength(1);
      expect(one.body.total).toBe(PUBLIC.length);
      const fifty = await s.json<Page>({ url: url({ limit: 50 }) });
      expect(fifty.status).toBe(200);
      expect(fifty.body.agents).toHaveLength(Math.min(50, PUBLIC.length));
    });
  });

  it("refuses an unknown parameter with 400 invalid_input \"Unknown query parameter 'x'.\"", async () => {
    const r = await s.json({ url: '/v1/public/agents?x=1' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'invalid_input', message: "Unknown query parameter 'x'." } });
    const mixed = await s.json({ url: '/v1/public/agents?chain=base&x=1' });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toBe("Unknown query parameter 'x'.");
  });
});

describe('GET /v1/public/agents: sorts', () => {
  it('newest: createdAt descending', async () => {
    const { agents } = await walk(s, { sort: 'newest', limit: 50 });
    expect(agents).toHaveLength(PUBLIC.length);
    expectSorted(agents, 'newest');
    for (const a of agents) expect(a.createdAt).toBe(fixtureListing(a.listingId).createdAt);
  });

  it('name: ascending', async () => {
    const { agents, pages } = await walk(s, { sort: 'name', limit: 50 });
    expect(pages[0].sort).toBe('name');
    expect(agents).toHaveLength(PUBLIC.length);
    expectSorted(agents, 'name');
  });

  it('price: non-decreasing by the reference price (cheapest maximum debit in micro-USD)', async () => {
    const { agents } = await walk(s, { sort: 'price', limit: 50 });
    expect(agents).toHaveLength(PUBLIC.length);
    expectSorted(agents, 'price');
    // The price published in the offers is the one the sort uses.
    for (const agent of agents) {
      const l = fixtureListing(agent.listingId);
      expect(offerReferencePrice(agent)).toBe(referencePrice(l, versionById.get(l.id) as ListingVersion, l.profiles));
    }
    const prices = agents.map((a) => offerReferencePrice(a));
    expect(new Set(prices.map(String)).size).toBeGreaterThan(1);
  });

  for (const profile of PROFILES) {
    it(`price with profile=${profile}: non-decreasing by that profile's price`, async () => {
      const q = { sort: 'price', profile, limit: 9 };
      const result = await walk(s, q);
      expectConsistentWalk(result, q);
      expectSorted(result.agents, 'price', profile);
    });
  }

  it('refuses an unknown sort with 400', async () => {
    const r = await s.json({ url: url({ sort: 'oldest' }) });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('sort');
  });
});

describe('GET /v1/public/agents: pagination', () => {
  const combinations: Query[] = [
    {},
    { limit: 1 },
    { limit: 7, sort: 'name' },
    { limit: 5, sort: 'price' },
    { limit: 3, chain: 'ethereum', sort: 'price' },
    { limit: 4, profile: 'solana_usdc', sort: 'name' },
    { limit: 2, review: 'reviewed', available: 'true', sort: 'newest' },
    { limit: 3, q: 'wallet', sort: 'price' },
    { limit: 2, topic: 'defi', permission: 'read_only' },
    { limit: 50, category: 'monitoring', priceStructure: 'per_monitoring_window' },
  ];
  for (const q of combinations) {
    it(`walks every page of ${JSON.stringify(q)}: no duplicates, total equal, last nextCursor null`, async () => {
      const result = await walk(s, q);
      expectConsistentWalk(result, q);
      expectSorted(result.agents, String(q.sort ?? 'newest'), q.profile as Profile | undefined);
      if (Number(q.limit ?? 20) < result.agents.length) expect(result.pages.length).toBeGreaterThan(1);
    });
  }

  it('total counts every matching listing across pages, not the page', async () => {
    const r = await s.json<Page>({ url: url({ chain: 'ethereum', limit: 2 }) });
    expect(r.body.agents).toHaveLength(2);
    expect(r.body.total).toBe(expectedIds({ chain: 'ethereum' }).length);
    expect(r.body.total).toBeGreaterThan(2);
  });

  it('treats sort=newest, review=any and an empty q like their omission when checking a cursor', async () => {
    const first = await s.json<Page>({ url: url({ limit: 5 }) });
    const cursor = first.body.nextCursor as string;
    const next = await s.json<Page>({ url: url({ limit: 5, sort: 'newest', review: 'any', cursor }) });
    expect(next.status).toBe(200);
    const second = await s.json<Page>({ url: url({ limit: 5, cursor }) });
    expect(second.status).toBe(200);
    expect(next.body.agents).toEqual(second.body.agents);
    // An empty q searches nothing, like no q.
    const emptyQ = await s.json<Page>({ url: url({ limit: 5, q: '', cursor }) });
    expect(emptyQ.status).toBe(200);
    expect(emptyQ.body.agents).toEqual(second.body.agents);
    // And the other way: a cursor of the explicit defaults serves the bare query.
    const explicit = await s.json<Page>({ url: url({ limit: 5, sort: 'newest', review: 'any' }) });
    const bare = await s.json<Page>({ url: url({ limit: 5, cursor: explicit.body.nextCursor as string }) });
    expect(bare.status).toBe(200);
    expect(bare.body.agents).toEqual(second.body.agents);
  });

  describe('refuses a bad cursor with 400 and the spec message', () => {
    async function firstCursor(q: Query, sim: TestSimulator = s): Promise<string> {
      const r = await sim.json<Page>({ url: url(q) });
      expect(r.status).toBe(200);
      expect(typeof r.body.nextCursor).toBe('string');
      return r.body.nextCursor as string;
    }
    async function expectInvalid(q: Query): Promise<void> {
      const r = await s.json({ url: url(q) });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: { code: 'invalid_input', message: CURSOR_INVALID } });
    }

    it('a malformed cursor', async () => {
      for (const cursor of ['x', 'not-a-cursor', 'a.b', 'a.b.c', '...', '%%%', 'eyJ2IjoxfQ.', '.abc']) await expectInvalid({ cursor });
    });

    it('a tampered cursor (offset changed, signature kept; or signature altered)', async () => {
      const cursor = await firstCursor({ limit: 3 });
      const [payload, signature] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      expect(typeof decoded).toBe('object');
      const forged = Buffer.from(JSON.stringify({ ...decoded, o: 0 })).toString('base64url');
      await expectInvalid({ limit: 3, cursor: `${forged}.${signature}` });
      const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
      await expectInvalid({ limit: 3, cursor: `${payload}.${flipped}` });
      await expectInvalid({ limit: 3, cursor: `${payload}.${signature}.x` });
      await expectInvalid({ limit: 3, cursor: cursor.slice(1) });
      // The genuine cursor still works.
      expect((await s.json({ url: url({ limit: 3, cursor }) })).status).toBe(200);
    });

    it('a cursor from another sort', async () => {
      const cursor = await firstCursor({ sort: 'name', limit: 3 });
      await expectInvalid({ sort: 'price', limit: 3, cursor });
      await expectInvalid({ limit: 3, cursor });
      expect((await s.json({ url: url({ sort: 'name', limit: 3, cursor }) })).status).toBe(200);
    });

    it('a cursor reused with different filters', async () => {
      const cursor = await firstCursor({ chain: 'ethereum', limit: 2 });
      await expectInvalid({ chain: 'base', limit: 2, cursor });
      await expectInvalid({ limit: 2, cursor });
      await expectInvalid({ chain: 'ethereum', review: 'reviewed', limit: 2, cursor });
      await expectInvalid({ chain: 'ethereum', q: 'a', limit: 2, cursor });
      expect((await s.json({ url: url({ chain: 'ethereum', limit: 2, cursor }) })).status).toBe(200);
    });

    it('a cursor from a simulator with another seed', async () => {
      const other = await startSimulator({ seed: 'another-seed' });
      try {
        const foreign = await firstCursor({ limit: 3 }, other);
        const own = await firstCursor({ limit: 3 });
        expect(foreign).not.toBe(own);
        await expectInvalid({ limit: 3, cursor: foreign });
      } finally {
        await other.destroy();
      }
    });

    it('a cursor longer than 600 characters', async () => {
      const r = await s.json({ url: url({ cursor: 'a'.repeat(601) }) });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
    });
  });

  it('property: any filters, sort and limit walk to exactly total agents without duplicates', async () => {
    // Each filter is left out four times in five, so that most combinations still match several agents.
    const optional = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: arb, weight: 1 });
    const queryArb = fc.record({
      q: optional(fc.constantFrom('a', 'token', 'WALLET', 'solana', 'monitor', 'xyz-none')),
      chain: optional(fc.constantFrom(...CHAINS)),
      ownership: optional(fc.constantFrom(...OWNERSHIPS)),
      review: optional(fc.constantFrom('reviewed', 'any')),
      profile: optional(fc.constantFrom(...PROFILES)),
      available: optional(fc.constantFrom('true', 'false')),
      category: optional(fc.constantFrom(...CATEGORIES)),
      priceStructure: optional(fc.constantFrom(...PRICE_STRUCTURES)),
      permission: optional(fc.constantFrom(...PERMISSIONS)),
      topic: optional(fc.constantFrom(...TOPICS)),
      sort: fc.option(fc.constantFrom('newest', 'name', 'price'), { nil: undefined }),
      limit: optional(fc.integer({ min: 1, max: 50 })),
    });
    let multiPage = 0;
    await fc.assert(
      fc.asyncProperty(queryArb, async (raw) => {
        const q = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as Query;
        const result = await walk(s, q);
        const ids = result.agents.map((a) => a.listingId);
        expect(new Set(ids).size).toBe(ids.length);
        for (const page of result.pages) expect(page.total).toBe(ids.length);
        expect([...ids].sort()).toEqual(expectedIds(q));
        expectSorted(result.agents, String(q.sort ?? 'newest'), q.profile as Profile | undefined);
        if (result.pages.length > 1) multiPage++;
      }),
      { numRuns: 30 },
    );
    // The property was exercised on real walks, not only on empty answers.
    expect(multiPage).toBeGreaterThanOrEqual(5);
  });
});

describe('GET /v1/public/agents: keys (spec 5.3)', () => {
  it('answers without a key and with a valid key holding catalog:read, identically', async () => {
    const anonymous = await s.json<Page>({ url: url({ limit: 5 }) });
    expect(anonymous.status).toBe(200);
    for (const profile of ['solana_sol', 'solana_usdc', 'local_custody', 'sim'] as const) {
      const keyed = await s.json<Page>({ url: url({ limit: 5 }), key: s.secret(profile) });
      expect(keyed.status).toBe(200);
      expect(keyed.body.agents).toEqual(anonymous.body.agents);
      expect(keyed.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses an invalid key with 401', async () => {
    for (const key of ['svc_test_' + 'A'.repeat(43), 'nonsense', s.secret('sim').slice(0, -1)]) {
      const r = await s.json({ url: '/v1/public/agents', key });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: 'request_rejected', message: 'A valid, active API key is required.' } });
    }
    const detail = await s.json({ url: `/v1/public/agents/${TOKEN_RESEARCH_LISTING_ID}`, key: 'svc_test_nope' });
    expect(detail.status).toBe(401);
  });

  it('refuses a revoked key with 401', async () => {
    const key = await createKey(0, { profile: 'solana_sol', spendLimitAtomic: '1000', scopes: ['catalog:read'] });
    expect((await s.json({ url: '/v1/public/agents', key: key.secret })).status).toBe(200);
    expect((await s.json({ method: 'POST', url: `/sim/keys/${key.id}/revoke` })).status).toBe(200);
    const r = await s.json({ url: '/v1/public/agents', key: key.secret });
    expect(r.status).toBe(401);
  });

  it('refuses a valid key lacking catalog:read with 403', async () => {
    const key = await createKey(0, { profile: 'solana_sol', spendLimitAtomic: '1000', scopes: ['runs:read'] });
    for (const path of ['/v1/public/agents', `/v1/public/agents/${TOKEN_RESEARCH_LISTING_ID}`]) {
      const r = await s.json({ url: path, key: key.secret });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: { code: 'request_rejected', message: 'This API key does not have the scope required for this route.' } });
    }
    // The same account's key is still fine on GET /v1/buyer/key (any valid key).
    expect((await s.json({ url: '/v1/buyer/key', key: key.secret })).status).toBe(200);
  });

  it('shows the whole catalog to a key restricted to some listings (spec 5: the public catalog stays readable)', async () => {
    const key = await createKey(0, { profile: 'solana_sol', spendLimitAtomic: '1000', scopes: ['catalog:read'], listingIds: [TOKEN_RESEARCH_LISTING_ID] });
    const r = await s.json<Page>({ url: url({ limit: 1 }), key: key.secret });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(PUBLIC.length);
  });
});

describe('GET /v1/public/agents/{listingId}', () => {
  it('answers every public agent with the spec 2.5 detail matching its fixture', async () => {
    for (const l of PUBLIC) {
      const r = await s.json({ url: `/v1/public/agents/${l.id}` });
      expect(r.status).toBe(200);
      const agent = r.body.agent;
      expect(agent.listingId).toBe(l.id);
      expect(agent.name).toBe(l.name);
      expect(agent.offers.map((o: { profile: string }) => o.profile)).toEqual(l.profiles);
      expect(agent.permissions).toEqual(l.permissions.map((p) => ({ id: p.id, label: p.label, detail: p.detail })));
      for (const p of agent.permissions) for (const field of ['id', 'label', 'detail']) expect(typeof p[field]).toBe('string');
      expect(agent.limits).toEqual(l.limits);
      for (const field of ['maximumRpcCalls', 'maximumDurationMs', 'maximumOutputBytes']) expect(Number.isInteger(agent.limits[field])).toBe(true);
      expect(agent.inputFields).toEqual(l.inputFields);
      expect(Array.isArray(agent.resultPolicies)).toBe(true);
      expect(agent.resultPolicies.length).toBe(l.resultPolicies.length);
      for (const policy of agent.resultPolicies) expect(typeof policy).toBe('object');
      expect(agent.refundPolicy).toEqual(l.refundPolicy);
      expect(agent.refundPolicy.length).toBeGreaterThan(0);
      expect(agent.limitations).toEqual(l.limitations);
      expect(agent.limitations.length).toBeGreaterThan(0);
    }
  });

  it('the detail extends the summary of the same agent', async () => {
    const { agents } = await walk(s, { limit: 50 });
    for (const summary of agents.slice(0, 10)) {
      const r = await s.json({ url: `/v1/public/agents/${summary.listingId}` });
      expect(r.body.agent).toMatchObject(summary);
    }
  });

  it('only the token research agent offers the canonical_metadata result policy, with its contract text', async () => {
    const withCanonical: string[] = [];
    for (const l of PUBLIC) {
      const r = await s.json({ url: `/v1/public/agents/${l.id}` });
      const text = JSON.stringify(r.body.agent.resultPolicies);
      expect(text).toContain('complete_only');
      if (text.includes('canonical_metadata')) withCanonical.push(l.id);
    }
    expect(withCanonical).toEqual([TOKEN_RESEARCH_LISTING_ID]);
    const token = await s.json({ url: `/v1/public/agents/${TOKEN_RESEARCH_LISTING_ID}` });
    const canonical = token.body.agent.resultPolicies.find((p: Record<string, unknown>) => JSON.stringify(p).includes('canonical_metadata'));
    expect(JSON.stringify(canonical)).toContain('pinned block');
  });

  it('answers an unknown uuid, and the creator test listing, with 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', CREATOR_TEST_LISTING_ID]) {
      const r = await s.json({ url: `/v1/public/agents/${id}` });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: { code: 'not_found', message: 'This agent listing was not found.' } });
    }
  });

  it('refuses a listing id that is not a uuid with 400 invalid_input', async () => {
    for (const id of ['abc', '123', `${TOKEN_RESEARCH_LISTING_ID}x`]) {
      const r = await s.json({ url: `/v1/public/agents/${id}` });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.message).toContain('listingId');
    }
  });

  it('refuses query parameters (it takes none)', async () => {
    const r = await s.json({ url: `/v1/public/agents/${TOKEN_RESEARCH_LISTING_ID}?x=1` });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("Unknown query parameter 'x'.");
  });
});
