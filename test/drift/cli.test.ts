import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Understudy } from '../../src/library/index.ts';
import { cli, ROOT } from '../helpers/cli.ts';
import { startStandIn } from './support.ts';

/** `understudy drift` as a user runs it: what it refuses before sending anything, and a key the service refuses. */
let standIn: Understudy;
let key: string;

beforeAll(async () => {
  ({ standIn, key } = await startStandIn());
});
afterAll(async () => {
  await standIn?.stop();
});

const logLength = async () => (await standIn.control.requests()).length;

describe('understudy drift refuses before sending anything', () => {
  it('without --yes prints the plan and sends nothing (exit 2)', async () => {
    const before = await logLength();
    const run = await cli(['drift', '--url', standIn.url, '--key', key], ROOT);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`The drift check will send to ${standIn.url}, at most:`);
    expect(run.stdout).toMatch(/5 quote creations/);
    expect(run.stderr).toContain('Nothing was sent. Run again with --yes');
    expect(await logLength()).toBe(before);
  });

  it('refuses plain http to a host that is not loopback, naming --url', async () => {
    const run = await cli(['drift', '--url', 'http://service.example', '--key', key, '--yes'], ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--url must use https:// for service.example');
    expect(run.stdout).toBe('');
  });

  it('refuses what is not an API key, naming --key without repeating it', async () => {
    const run = await cli(['drift', '--url', standIn.url, '--key', 'sk_secret_value_123', '--yes'], ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--key is not an API key');
    expect(`${run.stdout}${run.stderr}`).not.toContain('sk_secret_value_123');
  });

  it('refuses a --json file in a folder that does not exist, naming --json', async () => {
    const run = await cli(['drift', '--url', standIn.url, '--key', key, '--yes', '--json', '/nonexistent-folder/report.json'], ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--json /nonexistent-folder/report.json: the folder /nonexistent-folder does not exist.');
  });

  it('stops with exit 1 after the key read when the service refuses the key', async () => {
    const unknown = `svc_live_${'A'.repeat(43)}`;
    const before = await logLength();
    const run = await cli(['drift', '--url', standIn.url, '--key', unknown, '--yes'], ROOT);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('The check could not run: the service did not show the key (GET /v1/buyer/key answered 401');
    expect(run.stdout).not.toContain(unknown);
    expect((await standIn.control.requests()).slice(before).map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual(['GET /v1/buyer/key 401']);
  });
});
