import { afterEach, describe, expect, it } from 'vitest';
import { environmentOfKey } from '../../src/cli/tui.ts';
import { refusalMeaning } from '../../src/tui/refusals.ts';
import { startWiredConsole, temporaryFolder, type WiredConsole } from './wired-console.tsx';

/**
 * The environment on screen, and production's refusals explained in their
 * own words (spec 2.2, 4, 4.10 rules 2 and 3) rather than as a generic 403.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(env: 'test' | 'production'): Promise<WiredConsole> {
  const folder = await temporaryFolder();
  cleanups.push(folder.remove);
  const c = await startWiredConsole({ storePath: folder.storePath, seed: '1', env, clock: 'frozen' });
  cleanups.push(() => c.quit());
  return c;
}

describe('the environment', () => {
  it('is in the clock bar on every screen', async () => {
    // ink-testing-library renders 100 columns: below 110, production takes the brand's place.
    const production = await start('production');
    const home = await production.waitForFrame('Balances');
    const bar = home.split('\n')[1];
    expect(bar).toMatch(/^PRODUCTION · 2026-01-01 00:00:00Z frozen/);
    // What it says fits 80 columns (space-between pads it to the width).
    expect(bar.replace(/ {3,}/, '  ').trimEnd().length).toBeLessThanOrEqual(80);
    production.press('2');
    const catalog = await production.waitForFrame('Catalog');
    expect(catalog.split('\n')[1]).toMatch(/^PRODUCTION · /);
    await production.quit();

    const test = await start('test');
    expect((await test.waitForFrame('Balances')).split('\n')[1]).toMatch(/^understudy · 2026-01-01 00:00:00Z frozen/);
  });

  it('explains a refused monitor creation in production as spec 4.10 rule 2, not as a scope problem', async () => {
    const c = await start('production');
    await c.waitForFrame('Balances');
    c.press('5');
    await c.waitForFrame('No monitors: press n');
    c.press('n');
    const refused = await c.waitForFrame('✖ request_rejected (403)');
    expect(refused).toContain('Spec 4.10 rule 2: in production an API key cannot create monitors');
    expect(refused).not.toContain('scope, asset, listing or spend limit');
  });

  it('explains that the local inbox cannot receive in production instead of failing on https', async () => {
    const c = await start('production');
    await c.waitForFrame('Balances');
    c.press('7');
    const inbox = await c.waitForFrame('Webhook inbox');
    expect(inbox).not.toContain('press c to create');
    expect(inbox).toMatch(/production, webhooks are delivered only to public https/);
    c.press('c');
    const explained = await c.waitForFrame('✖ console_error');
    expect(explained).toMatch(/the console’s inbox listens on\s+http:\/\/127\.0\.0\.1, so it cannot receive there/);
    expect(explained).not.toContain('must use https');
    expect(c.store.getState().inbox.destination).toBeNull();
  });

  it('reads the environment of a --url key from its prefix (spec 5)', () => {
    expect(environmentOfKey(`svc_live_${'a'.repeat(43)}`)).toBe('production');
    expect(environmentOfKey(`svc_test_${'a'.repeat(43)}`)).toBe('test');
    expect(environmentOfKey('sk-something-else')).toBeNull();
  });

  it('explains production refusals by route where the real service words them otherwise', () => {
    const production = { environment: 'production' as const };
    expect(refusalMeaning('service_unavailable', 503, 'Unavailable.', { ...production, method: 'POST', path: '/v1/rehearsal/quotes' })).toMatch(/rehearsal\/\.\.\. routes exist for local rehearsal only and answer 503 in production/);
    expect(refusalMeaning('request_rejected', 403, 'Forbidden.', { ...production, method: 'POST', path: '/v1/monitors' })).toMatch(/^Spec 4\.10 rule 2/);
    expect(refusalMeaning('request_rejected', 403, 'webhookUrl is not allowed.', { ...production, method: 'POST', path: '/v1/monitors' })).toMatch(/^Spec 4\.10 rule 3/);
    // A missing scope stays a scope problem, in production too.
    expect(refusalMeaning('request_rejected', 403, 'This API key does not have the scope required for this route.', { ...production, method: 'POST', path: '/v1/monitors' })).toMatch(/lacks the scope/);
    expect(refusalMeaning('invalid_input', 400, 'url must use https', { ...production, method: 'POST', path: '/sim/accounts/a/destinations' })).toMatch(/only to public https addresses/);
    // The simulator's own wording is recognised whatever the console was told.
    expect(refusalMeaning('request_rejected', 503, 'The sim profile is not available in the production environment.')).toMatch(/^Spec 2\.2/);
    expect(refusalMeaning('request_rejected', 503, 'Rehearsal routes are not available in the production environment.')).toMatch(/^Spec 4:/);
    // In test, a 503 on a rehearsal route is a fault switched on, not production.
    expect(refusalMeaning('service_unavailable', 503, 'Payments are disabled.', { environment: 'test', method: 'POST', path: '/v1/rehearsal/quotes' })).toMatch(/faults screen/);
  });
});
