// node --test quotes.test.mjs: the same isolation with Node's own runner (.mjs: an ES module in any project, "type" set or not).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startUnderstudy } from 'understudy';

const TOKEN_AGENT = '850e6f23-fc83-4d0e-a832-d9de0de3dc98';

describe('a quote accepted and settled', () => {
  let understudy;
  before(async () => {
    understudy = await startUnderstudy();
  });
  beforeEach(() => understudy.reset());
  after(() => understudy.stop());

  const ethBalance = async () => (await understudy.control.account(understudy.accounts.evm.id)).balances.find((b) => b.profile === 'local_custody');

  it('charges the demo ETH account', async () => {
    const { v1, clock } = understudy;
    const quote = await v1.createQuote('custody', { listingId: TOKEN_AGENT, input: { chain: 'ethereum', address: '0x1111111111111111111111111111111111111111' } });
    const { run } = await v1.acceptQuote('custody', quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey: `accept-${quote.id}` });
    await clock.advance(300);
    assert.equal((await v1.getRun(run.id)).run.status, 'succeeded');
    assert.ok(BigInt((await ethBalance()).chargedAtomic) > 0n);
  });

  it('starts again from the demo balance (reset before each test)', async () => {
    const balance = await ethBalance();
    assert.equal(balance.availableAtomic, '2000000000000000000');
    assert.equal(balance.chargedAtomic, '0');
  });
});
