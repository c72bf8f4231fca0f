import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChaos } from '../../src/cli/chaos-flag.ts';
import { UsageError } from '../../src/cli/args.ts';
import { QUOTE_BODY, startLive, type LiveSimulator } from './support.ts';

/** PUT/GET /sim/chaos, GET /sim/report's query, and serve --chaos's values. */

let live: LiveSimulator;
beforeAll(async () => {
  live = await startLive();
});
afterAll(() => live.sim.destroy());

describe('PUT /sim/chaos and GET /sim/chaos', () => {
  it('sets a built-in profile by name, with a seed, and shows it', async () => {
    expect(await live.call('PUT', '/sim/chaos', { profile: 'storm', seed: 9 })).toMatchObject({ status: 200, body: { profile: { name: 'storm', seed: '9' }, seed: '9', decided: 0 } });
    expect(await live.call('GET', '/sim/chaos')).toMatchObject({ status: 200, body: { profile: { name: 'storm' }, seed: '9' } });
    expect(await live.call('PUT', '/sim/chaos', { profile: null })).toMatchObject({ status: 200, body: { profile: null } });
  });

  it.each([
    [{ profile: 'hurricane' }, 'body.profile'],
    [{ profile: { groups: { read: { reset: 2 } } } }, 'body.profile.groups.read.reset'],
    [{ profile: { groups: { everything: {} } } }, 'body.profile.groups.everything'],
    [{ profile: { groups: { read: { reset: 0.6, 'internal-error': 0.6 } } } }, 'more than 1'],
    [{ profile: { groups: { read: { latency: { probability: 1, minMs: 50, maxMs: 10 } } } } }, 'body.profile.groups.read.latency.maxMs'],
    [{ profile: 'calm', extra: 1 }, 'body.extra'],
    [{ seed: 1 }, 'body.profile'],
    [{ profile: 'calm', seed: '' }, 'body.seed'],
  ])('refuses %j with 400 invalid_input naming %s, and changes nothing', async (body, field) => {
    await live.setChaos('flaky', 4);
    const answer = await live.call('PUT', '/sim/chaos', body);
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 'invalid_input', message: expect.stringContaining(field) } } });
    expect(await live.call('GET', '/sim/chaos')).toMatchObject({ body: { profile: { name: 'flaky' }, seed: '4' } });
  });

  it.each([
    [{ profile: { plan: [{ group: 'accept', nth: 0, fault: 'reset' }] } }, 'body.profile.plan[0].nth'],
    [{ profile: { plan: [{ group: 'accepts', nth: 1, fault: 'reset' }] } }, 'body.profile.plan[0].group'],
    [{ profile: { plan: [{ group: 'accept', nth: 1, fault: 'lost' }] } }, 'body.profile.plan[0].fault'],
    [{ profile: { plan: [{ group: 'accept', nth: 1, fault: 'reset' }, { group: 'accept', nth: 1, fault: 'unavailable' }] } }, 'body.profile.plan[1]'],
  ])('refuses the plan %j with 400 naming %s', async (body, field) => {
    const answer = await live.call('PUT', '/sim/chaos', body);
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 'invalid_input', message: expect.stringContaining(field) } } });
  });

  it('a plan causes the situation it names, for certain: the 2nd quote creation is lost after commit, the others are untouched', async () => {
    await live.setChaos({ name: 'second-quote-lost', plan: [{ group: 'quote-create', nth: 2, fault: 'lost-after-commit' }] });
    const outcomes: Array<number | 'lost'> = [];
    for (let i = 0; i < 4; i += 1) {
      const answer = await live.call('POST', '/v1/custody/quotes', QUOTE_BODY);
      outcomes.push(answer === 'lost' ? 'lost' : answer.status);
    }
    expect(outcomes).toEqual([201, 'lost', 201, 201]);
    expect(await live.call('GET', '/sim/chaos')).toMatchObject({ body: { decided: 1 } });
  });

  it('GET /sim/report refuses a keyId that is not a UUID, naming it', async () => {
    expect(await live.call('GET', '/sim/report?keyId=nope')).toMatchObject({ status: 400, body: { error: { code: 'invalid_input', message: expect.stringContaining('keyId') } } });
  });

  it('a reset empties the conduct log', async () => {
    await live.setChaos(null);
    await live.call('GET', '/v1/runs/00000000-0000-4000-8000-000000000000');
    await live.call('GET', '/v1/buyer/key');
    expect((await live.report(live.keyId)).rules.find((r: any) => r.id === 'refusals-not-repeated').verdict).toBe('pass');
    await live.call('POST', '/sim/reset', {});
    expect((await live.report(live.keyId)).rules.every((r: any) => r.verdict === 'not-exercised')).toBe(true);
  });
});

describe('serve --chaos values', () => {
  it('takes a built-in name or a profile file, and names what is wrong with a bad one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-chaos-'));
    try {
      expect((await loadChaos('storm')).name).toBe('storm');
      const file = join(dir, 'profile.json');
      await writeFile(file, JSON.stringify({ name: 'mine', groups: { accept: { 'lost-after-commit': 0.5 } } }));
      expect(await loadChaos(file)).toMatchObject({ name: 'mine', groups: { accept: { 'lost-after-commit': 0.5 } } });
      await writeFile(file, JSON.stringify({ groups: { accept: { lost: 0.5 } } }));
      await expect(loadChaos(file)).rejects.toThrow(UsageError);
      await expect(loadChaos(file)).rejects.toThrow(/groups\.accept\.lost/);
      await expect(loadChaos(join(dir, 'missing.json'))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
