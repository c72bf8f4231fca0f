// node --test webhook.test.mjs: your own webhook receiver, judging timestamps by its own clock (Date.now()).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, it } from 'node:test';
import { startUnderstudy } from 'understudy';
import { verifyDelivery } from 'understudy/webhook';

let understudy;
let secret = ''; // the destination's signing secret, shown once when it is created
const verdicts = [];
const seen = new Set();

// A receiver as spec 6.2 asks: the signature over the raw body, the timestamp against this machine's clock, repeats dropped.
const receiver = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const verdict = verifyDelivery(req.headers, raw, { secret, nowSeconds: Math.floor(Date.now() / 1000), seen });
    verdicts.push(verdict);
    if (!verdict.ok) return res.writeHead(verdict.reason === 'bad-signature' ? 401 : 400).end();
    const answer = verdict.isChallenge ? { challenge: verdict.payload.challenge } : { received: true };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

before(async () => {
  understudy = await startUnderstudy(); // simulated time frozen at 2026-01-01; each delivery is signed with the real time it is sent
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  receiver.close();
  await understudy.stop();
});

it('verifies the ownership challenge, with the simulated clock a day on', async () => {
  const { control, accounts, clock } = understudy;
  await clock.advance(86_400);
  const created = await control.createDestination(accounts.evm.id, { url: `http://127.0.0.1:${receiver.address().port}/hooks` });
  secret = created.signingSecret;
  const destination = await control.verifyDestination(created.destination.id);
  assert.equal(destination.state, 'verified');
  assert.equal(verdicts.length, 1);
  assert.equal(verdicts[0].ok && verdicts[0].isChallenge, true);
});
