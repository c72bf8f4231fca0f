// Runs in an empty project where only the packed tarball is installed
// (test/library/package.test.ts makes it): the library, the client, the
// webhook verifier and both commands, as a user of the package meets them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startUnderstudy } from 'understudy';
import { createClient } from 'understudy/client';
import { signDelivery, verifyDelivery } from 'understudy/webhook';

/**
 * Starts `npx understudy ARGS` and waits for output matching `ready`; stop()
 * sends SIGTERM to its process group (npx does not pass signals on to the
 * command it started) and waits for npx to end.
 */
async function command(args, ready) {
  const child = spawn('npx', ['--no', 'understudy', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.stderr.on('data', (chunk) => (output += chunk));
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (ready.test(output)) resolve();
    });
    exited.then((code) => reject(new Error(`understudy ${args.join(' ')} exited (${code}) before it was ready:\n${output}`)));
    setTimeout(() => reject(new Error(`understudy ${args.join(' ')} was not ready within 60 s:\n${output}`)), 60_000).unref();
  }).catch(async (error) => {
    process.kill(-child.pid, 'SIGTERM');
    throw error;
  });
  return {
    output: () => output,
    async stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await exited;
    },
  };
}

describe('the installed package', () => {
  const stops = [];
  after(() => Promise.all(stops.map((stop) => stop())));

  it('startUnderstudy: demo keys, the typed clients, reset', async () => {
    const understudy = await startUnderstudy({ seed: 5 });
    stops.push(() => understudy.stop());
    assert.equal((await understudy.v1.getKey()).profile, 'local_custody');
    const client = createClient({ baseUrl: understudy.url, key: understudy.keys.solana_usdc });
    assert.equal((await client.v1.getKey()).profile, 'solana_usdc');
    await understudy.control.deposit(understudy.accounts.evm.id, { profile: 'sim', amountAtomic: '5' });
    await understudy.reset();
    const sim = (await understudy.control.account(understudy.accounts.evm.id)).balances.find((b) => b.profile === 'sim');
    assert.equal(sim.availableAtomic, '1000000000');
  });

  it('npx understudy serve: listens and prints working demo keys', async () => {
    const serve = await command(['serve', '--port', '0', '--clock', 'frozen', '--store', join(mkdtempSync('serve-'), 'store.json')], /\n +sim +account .*\n/);
    const url = /listening on (http:\S+)/.exec(serve.output())[1];
    const key = /local_custody +account \S+ \(evm\) +key (\S+)/.exec(serve.output())[1];
    const answer = await fetch(`${url}/v1/buyer/key`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(answer.status, 200);
    assert.equal((await answer.json()).key.profile, 'local_custody');
    await serve.stop();
  });

  it('npx understudy webhook listen: takes a delivery signed as the simulator signs, refuses a forged one', async () => {
    const understudy = await startUnderstudy();
    stops.push(() => understudy.stop());
    const secret = 'whsec_installed_package_test';
    const listen = await command(['webhook', 'listen', '--port', '0', '--secret', secret, '--sim-url', understudy.url], /judging timestamps/);
    try {
      const url = /listening on (http:\S+)/.exec(listen.output())[1];
      const body = JSON.stringify({ type: 'test.ping', data: {} });
      const timestamp = Math.floor(Date.parse(understudy.clock.now()) / 1000);
      const headers = signDelivery(secret, 'evt_installed_1', timestamp, body);
      assert.equal(verifyDelivery(headers, body, { secret, nowSeconds: timestamp }).ok, true);
      const taken = await fetch(url, { method: 'POST', headers, body });
      assert.ok(taken.status >= 200 && taken.status < 300, `status ${taken.status}`);
      const forged = await fetch(url, { method: 'POST', headers: { ...headers, 'x-service-event-id': 'evt_installed_2' }, body });
      assert.ok(forged.status >= 400 && forged.status < 500, `status ${forged.status}`);
      assert.match(listen.output(), /evt_installed_1/);
    } finally {
      await listen.stop();
    }
  });
});
