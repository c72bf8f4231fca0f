import { open, stated } from '../decisions.ts';
import { QUOTE } from '../spec-fields.ts';
import { dateOf, type Exchange, type ProbeRequest } from '../wire.ts';
import { objectOf, type ProbeDef, type SideContext } from './types.ts';

/** An ERC-20 contract address: the token research input of spec 4.3 (a quote reads nothing on chain). */
const TOKEN_ADDRESS = '0x6b175474e89094c44da98b954eedeac495271d0f';
const QUOTE_LIFETIME_S = 240;
/** The Date header has whole seconds, and the quote's instant is taken a moment before the answer is sent. */
export const EXPIRY_TOLERANCE_S = 2;

/** A quote creation on the side's own rail, for one of its listings; the Solana rail names the key's asset (4.3). */
function create(ctx: SideContext, listingId: string | undefined, body: Record<string, unknown>): ProbeRequest | { skip: string } {
  if (!ctx.key) return { skip: 'the key could not be read' };
  if (!listingId) return { skip: 'the catalog shows no listing for this probe' };
  const assetId = ctx.key.rail === 'solana-custody' && ctx.key.assetId ? { assetId: ctx.key.assetId } : {};
  return { method: 'POST', path: `/v1/${ctx.key.rail}/quotes`, body: { listingId, ...body, ...assetId }, keyed: true };
}

const tokenInput = (ctx: SideContext) => ({ chain: ctx.tokenResearch?.chains[0] ?? 'ethereum', address: TOKEN_ADDRESS });

/** Spec 2.7's relations inside one quote: the fee split, feeBps 1000, expiry 240 s after the answer's Date. */
export function quoteRelations(answer: Exchange): string[] {
  const quote = objectOf(objectOf(answer.body)?.quote);
  if (!quote) return [];
  const broken: string[] = [];
  const amount = (name: string) => (typeof quote[name] === 'string' && /^(0|[1-9][0-9]*)$/.test(quote[name] as string) ? BigInt(quote[name] as string) : null);
  const [gross, platform, creator] = [amount('grossCreatorFeeAtomic'), amount('platformFeeAtomic'), amount('creatorCreditAtomic')];
  if (gross === null || platform === null || creator === null) broken.push('fee split: not all of grossCreatorFeeAtomic, platformFeeAtomic, creatorCreditAtomic are amounts');
  else if (gross !== platform + creator) broken.push(`fee split: gross ${gross} is not platform fee ${platform} + creator credit ${creator}`);
  if (quote.feeBps !== 1000) broken.push(`feeBps: ${JSON.stringify(quote.feeBps)}, not 1000`);
  const date = dateOf(answer);
  const expires = typeof quote.expiresAt === 'string' ? Date.parse(quote.expiresAt) : NaN;
  if (date === null || Number.isNaN(expires)) broken.push('expiry: no Date header or no expiresAt to compare');
  else {
    const after = (expires - date) / 1000;
    if (Math.abs(after - QUOTE_LIFETIME_S) > EXPIRY_TOLERANCE_S) broken.push(`expiry: expiresAt is ${after.toFixed(1)} s after the Date header, not ${QUOTE_LIFETIME_S} s (±${EXPIRY_TOLERANCE_S} s)`);
  }
  return broken;
}

function learnQuote(ctx: SideContext, answer: Exchange): void {
  const quote = objectOf(objectOf(answer.body)?.quote);
  if (answer.status === 201 && typeof quote?.id === 'string' && typeof quote.contractHash === 'string' && /^[a-f0-9]{64}$/.test(quote.contractHash)) {
    ctx.quote = { id: quote.id, contractHash: quote.contractHash };
  }
}

/** A hash that is certainly not the quote's: its last digit changed. Never the right one (issue 30: no acceptance with the right hash). */
export function wrongHash(contractHash: string): string {
  const last = contractHash.at(-1) === '0' ? '1' : '0';
  return `${contractHash.slice(0, -1)}${last}`;
}

/** An acceptance whose hash is wrong, so spec 4.5 reserves nothing whichever check refuses it. */
function refusedAccept(ctx: SideContext, idempotencyKey: string): ProbeRequest | { skip: string } {
  if (!ctx.key) return { skip: 'the key could not be read' };
  if (!ctx.quote) return { skip: 'no quote was created on this side, so no hash is known to be wrong' };
  return { method: 'POST', path: `/v1/${ctx.key.rail}/quotes/${ctx.quote.id}/accept`, body: { acceptedContractHash: wrongHash(ctx.quote.contractHash), idempotencyKey }, keyed: true };
}

const LEDGER_PREFIX = 'Accounting rejected this action: ';
/** Part 7 states the ledger message's form; the reason inside it is the simulator's wording. */
const ledgerMessage = (service: string, simulator: string) => ([service, simulator].every((m) => m.startsWith(LEDGER_PREFIX) && m.endsWith('.')) ? open('messages') : stated('7'));

/** At most 5 quote creations (issue 30), then two acceptances refused before anything is reserved. */
export function quoteProbes(idempotencyKey: string): ProbeDef[] {
  return [
    { id: 'quote-created', title: 'a quote for the token research agent', kind: 'quote creation', expect: { status: stated('4.3'), answer: QUOTE }, request: (ctx) => create(ctx, ctx.tokenResearch?.listingId, { input: tokenInput(ctx) }), learn: learnQuote, relations: quoteRelations },
    { id: 'quote-canonical-metadata', title: 'a quote under canonical_metadata (token research agent)', kind: 'quote creation', expect: { status: stated('3.4'), answer: QUOTE }, request: (ctx) => create(ctx, ctx.tokenResearch?.listingId, { input: tokenInput(ctx), resultPolicy: 'canonical_metadata' }), relations: quoteRelations },
    { id: 'quote-input-refused', title: 'a quote whose input lacks the address', kind: 'quote creation', expect: { status: stated('4.3'), code: stated('7') }, request: (ctx) => create(ctx, ctx.tokenResearch?.listingId, { input: { chain: tokenInput(ctx).chain } }) },
    { id: 'quote-policy-unavailable', title: 'canonical_metadata from another agent', kind: 'quote creation', expect: { status: stated('3.4'), code: stated('7') }, request: (ctx) => create(ctx, ctx.otherAgent?.listingId, { input: tokenInput(ctx), resultPolicy: 'canonical_metadata' }) },
    { id: 'quote-unknown-listing', title: 'a quote for a listing that does not exist', kind: 'quote creation', expect: { status: stated('7'), code: open('error-codes'), message: stated('7') }, request: (ctx) => create(ctx, ctx.unknownId, { input: tokenInput(ctx) }) },
    { id: 'accept-wrong-hash', title: 'acceptance with a wrong contract hash', kind: 'refused acceptance', expect: { status: stated('4.5'), code: stated('7'), message: ledgerMessage }, request: (ctx) => refusedAccept(ctx, idempotencyKey) },
    {
      id: 'accept-malformed-key',
      title: 'acceptance with a malformed idempotency key and a wrong hash',
      kind: 'refused acceptance',
      // Which refusal comes first (the schema's 400 or the hash's 409) the spec leaves open.
      expect: { status: open('schema-first'), code: open('schema-first'), message: open('schema-first') },
      request: (ctx) => refusedAccept(ctx, 'not a key!'),
    },
  ];
}
