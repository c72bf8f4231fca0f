// NODE_OPTIONS=--experimental-vm-modules npx jest --config examples/testing/jest/jest.config.js
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startUnderstudy } from 'understudy';

const TOKEN_AGENT = '850e6f23-fc83-4d0e-a832-d9de0de3dc98';

describe('a quote accepted and settled', () => {
  let understudy;
  beforeAll(async () => {
    understudy = await startUnderstudy();
  });
  beforeEach(() => understudy.reset());
  afterAll(() => understudy.stop());

  const ethBalance = async () => (await understudy.control.account(understudy.accounts.evm.id)).balances.find((b) => b.profile === 'local_custody');

  it('charges the demo ETH account', async () => {
    const { v1, clock } = understudy;
    const quote = await v1.createQuote('custody', { listingId: TOKEN_AGENT, input: { chain: 'ethereum', address: '0x1111111111111111111111111111111111111111' } });
    const { run } = await v1.acceptQuote('custody', quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey: `accept-${quote.id}` });
    await clock.advance(300);
    expect((await v1.getRun(run.id)).run.status).toBe('succeeded');
    expect(BigInt((await ethBalance()).chargedAtomic)).toBeGreaterThan(0n);
  });

  it('starts again from the demo balance (reset before each test)', async () => {
    const balance = await ethBalance();
    expect(balance.availableAtomic).toBe('2000000000000000000');
    expect(balance.chargedAtomic).toBe('0');
  });
});
