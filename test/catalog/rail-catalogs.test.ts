import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../sim/domain/catalog/index.ts';
import type { Listing, Profile } from '../../sim/domain/catalog/index.ts';
import { buildListingFixtures, CREATOR_TEST_LISTING_ID } from '../../fixtures/listings/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** The rail catalogs (spec 2.6, 4, 4.2, 5 "one key, one asset") over HTTP. */

const OTHER_ENVIRONMENT = { error: { code: 'request_rejected', message: 'This API key is restricted to a different payment environment.' } };
const SOL_ASSET = 'solana:mainnet-beta/native';
const USDC_ASSET = 'solana:mainnet-beta/spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ETH_ASSET = 'eip155:4663/native';

const fixtures = buildListingFixtures();
const PUBLIC: Listing[] = fixtures.map((f) => f.listing).filter((l) => !l.isCreatorTest && l.active);
const accepting = (profile: Profile) => PUBLIC.filter((l) => l.profiles.includes(profile));

interface Catalog {
  listings: Array<Record<string, any>>;
  pricingPolicy?: Record<string, unknown>;
}

let s: TestSimulator;
beforeAll(async () => {
  s = await startSimulator();
});
afterAll(async () => {
  await s?.destroy();
});

async function createKey(accountIndex: number, body: Record<string, unknown>): Promise<string> {
  const r = await s.json({ method: 'POST', url: `/sim/accounts/${s.demo[accountIndex].accountId}/keys`, body });
  expect(r.status).toBe(201);
  return r.body.secret;
}
const solanaAccount = () => s.demo.findIndex((d) => d.accountType === 'solana');
const evmAccount = () => s.demo.findIndex((d) => d.accountType === 'evm');

/** A rail catalog holding exactly the public listings that accept the profile, each in that profile's asset. */
async function expectCatalogOf(path: string, key: string, profile: Profile): Promise<Catalog> {
  const r = await s.json<Catalog>({ url: path, key });
  expect(r.status).toBe(200);
  expect(r.headers['cache-control']).toBe('no-store');
  const { listings, pricingPolicy } = r.body;
  expect(Array.isArray(listings)).toBe(true);
  expect(listings.length).toBeLessThanOrEqual(100);
  expect(listings.length).toBeGreaterThan(0);
  const expected = accepting(profile).map((l) => l.id).sort();
  expect(listings.map((l) => l.listingId).sort()).toEqual(expected.slice(0, 100));
  expect(listings.map((l) => l.listingId)).not.toContain(CREATOR_TEST_LISTING_ID);
  for (const listing of listings) {
    expect(listing.manifest).toEqual(expect.any(Object));
    expect(listing.tariffs).toEqual(expect.any(Object));
    expect(listing.tariffs.profile).toBe(profile);
    expect(listing.asset.assetId).toBe(ASSETS[profile].assetId);
    expect(Array.isArray(listing.resultContracts)).toBe(true);
    expect(listing.resultContracts.length).toBeGreaterThan(0);
  }
  expect(pricingPolicy).toEqual(expect.any(Object));
  return r.body;
}

describe('GET /v1/solana-custody/catalog', () => {
  it('shows a SOL key the listings accepting SOL, with a pricing policy', async () => {
    const catalog = await expectCatalogOf('/v1/solana-custody/catalog', s.secret('solana_sol'), 'solana_sol');
    expect(catalog.pricingPolicy).toMatchObject({ assetId: SOL_ASSET });
  });

  it('shows a USDC key the listings accepting USDC', async () => {
    const catalog = await expectCatalogOf('/v1/solana-custody/catalog', s.secret('solana_usdc'), 'solana_usdc');
    expect(catalog.pricingPolicy).toMatchObject({ assetId: USDC_ASSET });
  });

  it('prices each listing as the public catalog offers it in the same asset', async () => {
    const catalog = await expectCatalogOf('/v1/solana-custody/catalog', s.secret('solana_usdc'), 'solana_usdc');
    for (const listing of catalog.listings.slice(0, 10)) {
      const agent = (await s.json({ url: `/v1/public/agents/${listing.listingId}` })).body.agent;
      const offer = agent.offers.find((o: { profile: string }) => o.profile === 'solana_usdc');
      expect(offer.pricing.maximumBuyerDebitAtomic).toBe(listing.pricing.maximumBuyerDebitAtomic);
      expect(listing.versionId).toBe(agent.versionId);
    }
  });

  it('accepts the key\'s own asset as assetId', async () => {
    const sol = await s.json<Catalog>({ url: `/v1/solana-custody/catalog?assetId=${encodeURIComponent(SOL_ASSET)}`, key: s.secret('solana_sol') });
    expect(sol.status).toBe(200);
    expect(sol.body.listings.map((l) => l.listingId).sort()).toEqual(accepting('solana_sol').map((l) => l.id).sort());
    const usdc = await s.json<Catalog>({ url: `/v1/solana-custody/catalog?assetId=${encodeURIComponent(USDC_ASSET)}`, key: s.secret('solana_usdc') });
    expect(usdc.status).toBe(200);
    expect(usdc.body.listings.map((l) => l.listingId).sort()).toEqual(accepting('solana_usdc').map((l) => l.id).sort());
  });

  it('refuses another asset with 403 (other payment environment)', async () => {
    const cases: Array<[Profile, string]> = [
      ['solana_sol', USDC_ASSET],
      ['solana_sol', ETH_ASSET],
      ['solana_usdc', SOL_ASSET],
      ['solana_usdc', ETH_ASSET],
      ['solana_sol', 'solana:devnet/native'],
    ];
    for (const [profile, assetId] of cases) {
      const r = await s.json({ url: `/v1/solana-custody/catalog?assetId=${encodeURIComponent(assetId)}`, key: s.secret(profile) });
      expect(r.status, `${profile} naming ${assetId}`).toBe(403);
      expect(r.body).toEqual(OTHER_ENVIRONMENT);
    }
  });

  it('refuses an empty or over-long assetId with 400 invalid_input', async () => {
    for (const assetId of ['', 'a'.repeat(201)]) {
      const r = await s.json({ url: `/v1/solana-custody/catalog?assetId=${assetId}`, key: s.secret('solana_sol') });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.message).toContain('assetId');
    }
  });

  it('refuses an unknown query parameter with 400', async () => {
    const r = await s.json({ url: '/v1/solana-custody/catalog?x=1', key: s.secret('solana_sol') });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'invalid_input', message: "Unknown query parameter 'x'." } });
  });

  it('refuses ETH and sim keys with 403 (other payment environment)', async () => {
    for (const profile of ['local_custody', 'sim'] as const) {
      const r = await s.json({ url: '/v1/solana-custody/catalog', key: s.secret(profile) });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(OTHER_ENVIRONMENT);
    }
  });

  it('shows a key restricted to some listings only those', async () => {
    const allowed = accepting('solana_sol').slice(0, 2).map((l) => l.id);
    const key = await createKey(solanaAccount(), { profile: 'solana_sol', spendLimitAtomic: '1000', scopes: ['catalog:read'], listingIds: allowed });
    const r = await s.json<Catalog>({ url: '/v1/solana-custody/catalog', key });
    expect(r.status).toBe(200);
    expect(r.body.listings.map((l) => l.listingId).sort()).toEqual([...allowed].sort());
  });
});

describe('GET /v1/custody/catalog', () => {
  it('shows an ETH key the listings accepting local_custody', async () => {
    const catalog = await expectCatalogOf('/v1/custody/catalog', s.secret('local_custody'), 'local_custody');
    expect(catalog.pricingPolicy).toMatchObject({ assetId: ETH_ASSET });
  });

  it('refuses SOL, USDC and sim keys with 403 (other payment environment)', async () => {
    for (const profile of ['solana_sol', 'solana_usdc', 'sim'] as const) {
      const r = await s.json({ url: '/v1/custody/catalog', key: s.secret(profile) });
      expect(r.status, profile).toBe(403);
      expect(r.body).toEqual(OTHER_ENVIRONMENT);
    }
  });

  it('takes no parameters: an unknown one, or assetId, answers 400', async () => {
    for (const query of ['x=1', `assetId=${encodeURIComponent(ETH_ASSET)}`]) {
      const r = await s.json({ url: `/v1/custody/catalog?${query}`, key: s.secret('local_custody') });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.message).toMatch(/^Unknown query parameter '(x|assetId)'\.$/);
    }
  });
});

describe('GET /v1/rehearsal/catalog', () => {
  it('shows the sim key the listings accepting sim', async () => {
    const catalog = await expectCatalogOf('/v1/rehearsal/catalog', s.secret('sim'), 'sim');
    expect(catalog.pricingPolicy).toMatchObject({ profile: 'sim' });
  });

  it('refuses keys of the other rails with 403', async () => {
    for (const profile of ['solana_sol', 'solana_usdc', 'local_custody'] as const) {
      const r = await s.json({ url: '/v1/rehearsal/catalog', key: s.secret(profile) });
      expect(r.status, profile).toBe(403);
      expect(r.body).toEqual(OTHER_ENVIRONMENT);
    }
  });

  it('refuses an unknown query parameter with 400', async () => {
    const r = await s.json({ url: '/v1/rehearsal/catalog?x=1', key: s.secret('sim') });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("Unknown query parameter 'x'.");
  });

  it('answers 503 in production, with or without a key', async () => {
    const prod = await startSimulator({ env: 'production' });
    try {
      expect(prod.demo.map((d) => d.profile)).not.toContain('sim');
      for (const key of [undefined, prod.secret('solana_sol'), prod.secret('local_custody')]) {
        const r = await prod.json({ url: '/v1/rehearsal/catalog', key });
        expect(r.status).toBe(503);
        expect(typeof r.body.error.code).toBe('string');
        expect(typeof r.body.error.message).toBe('string');
      }
      // The other rails still answer in production.
      expect((await prod.json({ url: '/v1/solana-custody/catalog', key: prod.secret('solana_sol') })).status).toBe(200);
      expect((await prod.json({ url: '/v1/custody/catalog', key: prod.secret('local_custody') })).status).toBe(200);
    } finally {
      await prod.destroy();
    }
  });
});

describe('rail catalogs: keys', () => {
  const paths: Array<[string, Profile]> = [
    ['/v1/solana-custody/catalog', 'solana_sol'],
    ['/v1/custody/catalog', 'local_custody'],
    ['/v1/rehearsal/catalog', 'sim'],
  ];

  for (const [path] of paths) {
    it(`${path}: no key or an invalid key answers 401`, async () => {
      for (const key of [undefined, 'svc_test_' + 'A'.repeat(43)]) {
        const r = await s.json({ url: path, key });
        expect(r.status).toBe(401);
        expect(r.body).toEqual({ error: { code: 'request_rejected', message: 'A valid, active API key is required.' } });
      }
    });
  }

  for (const [path, profile] of paths) {
    it(`${path}: a key of the rail lacking catalog:read answers 403`, async () => {
      const account = profile === 'solana_sol' ? solanaAccount() : evmAccount();
      const key = await createKey(account, { profile, spendLimitAtomic: '1000', scopes: ['runs:read'] });
      const r = await s.json({ url: path, key });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: { code: 'request_rejected', message: 'This API key does not have the scope required for this route.' } });
    });
  }
});
