import type { Scenario, Step } from '../scenario/format.ts';
import { CaseInputError } from './documents.ts';
import type { CaseFacts } from './facts.ts';
import { accountTypeOf, railOfProfile, type Profile } from './units.ts';

/**
 * A case as a scenario (the existing format): a fresh account and key in the
 * run's asset, the same listing, input and result policy, accepted at the
 * same simulated time, the run's ending scripted from what the documents say
 * (POST /sim/runs/{id}/script), then the cancel, the reorg and the
 * reconciliation at their times, and finally the reads a comparison needs.
 * Whatever the documents do not say is chosen and listed in `assumptions`.
 */
type Json = Record<string, unknown>;

/** The simulator's epoch: a scenario cannot start earlier. */
const EPOCH = '2026-01-01T00:00:00.000Z';
/** Names of the closing reads, which the comparison finds by name. */
export const READ_STEPS = { run: 'reproduction: the run read', billing: 'reproduction: the billing', receipt: 'reproduction: the receipt', export: 'reproduction: the export' } as const;

const toSeconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
const later = (a: string | null, b: string | null) => (a && b && Date.parse(a) > Date.parse(b) ? a : b ?? a);

function chooseProfile(facts: CaseFacts, assumptions: string[]): Profile {
  if (facts.profile) return facts.profile;
  const tariffs = (facts.version?.tariffs as Json[] | undefined)?.map((t) => t.profile as Profile) ?? [];
  const chosen = tariffs.includes('local_custody') || tariffs.length === 0 ? 'local_custody' : tariffs[0];
  assumptions.push(`payment asset: no receipt or quote names it; paid in ${chosen} (send the receipt to be sure)`);
  return chosen;
}

export interface Reproduction {
  scenario: Scenario;
  assumptions: string[];
}

export function reproduceCase(facts: CaseFacts): Reproduction {
  const assumptions: string[] = [];
  const sent = [...new Set(Object.values(facts.files))].join(', ') || '(documents)';
  if (!facts.listingId) throw new CaseInputError(sent, 'listingId', 'is in none of these documents: send the export, the run read, the receipt or the quote too');
  if (!facts.input) throw new CaseInputError(sent, 'input', 'is in none of these documents: send the export, the run read, the receipt or the quote too');
  const profile = chooseProfile(facts, assumptions);
  const rail = railOfProfile(profile);
  const quote = facts.quote;
  const maximum = typeof quote?.maximumBuyerDebitAtomic === 'string' ? BigInt(quote.maximumBuyerDebitAtomic) : null;
  const funds = maximum !== null && maximum > 0n ? (maximum * 10n).toString() : '1000000000000000000000';
  assumptions.push(`balance and spend limit: a fresh account holding ${funds} atomic with a key limited to the same (the customer's balance does not change what a run is charged)`);
  const policy = facts.resultPolicy ?? 'complete_only';
  if (!facts.resultPolicy) assumptions.push('result policy: no quote or receipt names it; complete_only, the default (spec 3.4)');

  const e = facts.events;
  const acceptedAt = e.acceptedAt ?? (typeof facts.run?.createdAt === 'string' ? facts.run.createdAt : null);
  const quotedAt = typeof quote?.createdAt === 'string' ? quote.createdAt : acceptedAt;
  const startAt = quotedAt && Date.parse(quotedAt) >= Date.parse(EPOCH) ? quotedAt : null;
  if (!startAt) assumptions.push(`time: the case happened ${quotedAt ? `at ${quotedAt}, before the simulator's epoch` : 'at a time no document gives'}; the reproduction starts at ${EPOCH} and keeps the intervals`);
  const origin = startAt ?? quotedAt ?? EPOCH;
  // Every later time is replayed at the same distance from the quote's creation.
  const at = (time: string) => new Date(Date.parse(startAt ?? EPOCH) + Date.parse(time) - Date.parse(origin)).toISOString();

  const steps: Step[] = [];
  if (facts.version && facts.versionId) {
    // The export's immutable version joins the catalog when the fixtures lack it (a no-op when they hold it), so the quote binds to it.
    steps.push({
      name: `the listing version ${facts.versionId} from the export (price revision ${String(facts.version.priceRevision)}) is the listing's current version`,
      control: { method: 'PUT', path: `/sim/listings/${facts.listingId}/versions/${facts.versionId}`, body: facts.version },
    });
  } else assumptions.push("listing version: no export was sent; the catalog's current version of the listing (the quote step checks its price revision where a document gives it)");
  const body: Json = { listingId: facts.listingId, input: facts.input, resultPolicy: policy };
  if (rail === 'solana-custody') body.assetId = typeof quote?.assetId === 'string' ? quote.assetId : undefined;
  const expectQuote: Json = {};
  if (facts.priceRevision !== null) expectQuote.priceRevision = facts.priceRevision;
  if (maximum !== null) expectQuote.maximumBuyerDebitAtomic = maximum.toString();
  steps.push({
    name: `quote the listing ${facts.listingId} (version ${facts.versionId ?? 'current'}, price revision ${facts.priceRevision ?? 'current'})`,
    call: { method: 'POST', path: `/v1/${rail}/quotes`, key: 'buyer', body: JSON.parse(JSON.stringify(body)) },
    save: { quoteId: 'quote.id', hash: 'quote.contractHash' },
    expect: { status: 201, ...(Object.keys(expectQuote).length ? { body: { quote: expectQuote } } : {}) },
  });
  if (acceptedAt && quotedAt && Date.parse(acceptedAt) > Date.parse(quotedAt)) steps.push({ name: 'wait as long as the customer did before accepting', advance: { to: at(acceptedAt) } });

  const failedAtStart = facts.outcome === 'failed' && facts.failure === 'platform' && !e.startedAt && !e.cancelledAt;
  if (failedAtStart) steps.push({ name: 'the research provider is down when the run starts (a platform failure before any read)', control: { method: 'PUT', path: '/sim/faults', body: { researchProviderUnavailable: true } } });
  steps.push({
    name: 'accept it',
    call: { method: 'POST', path: `/v1/${rail}/quotes/{{quoteId}}/accept`, key: 'buyer', body: { acceptedContractHash: '{{hash}}', idempotencyKey: `case-${(facts.runId || 'run').replace(/[^a-zA-Z0-9]/g, '').slice(0, 32) || 'run'}` } },
    save: { runId: 'run.id' },
    expect: { status: 202 },
  });
  if (failedAtStart) {
    steps.push({ name: 'the worker picks the run up', advance: { seconds: 1 } });
    steps.push({ name: 'the provider is back', control: { method: 'PUT', path: '/sim/faults', body: { researchProviderUnavailable: false } } });
  } else if (e.startedAt || facts.outcome !== 'cancelled') {
    steps.push({ name: 'script the ending the documents show', control: { method: 'POST', path: '/sim/runs/{{runId}}/script', body: scriptOf(facts, assumptions) } });
  }

  const reorg = reorgNeeded(facts);
  if (reorg) {
    if (!e.startedAt) throw new CaseInputError(facts.files.run ?? sent, 'events', 'hold no "started" event: a reorg case needs the time the run pinned its block');
    steps.push({ name: 'the worker starts and pins the chain head', advance: { to: at(e.startedAt) } });
    steps.push({ name: `a reorg replaces the pinned ${reorg} block, so the facts are no longer at a canonical block (spec 3.4)`, reorg: { chain: reorg, depth: 1 } });
    assumptions.push(`reorg: canonical_metadata charged nothing although the five facts were observed, so the pinned ${reorg} block was reorganised away before completion; the reproduction replaces it right after the start`);
  }
  if (e.cancelledAt) {
    steps.push({ name: 'wait until the customer cancelled', advance: { to: at(e.cancelledAt) } });
    steps.push({ name: 'cancel (spec 3.2)', call: { method: 'POST', path: '/v1/runs/{{runId}}/cancel', key: 'buyer' }, expect: { status: 200 } });
  } else {
    const end = e.endedAt ?? null;
    if (end) steps.push({ name: 'let the run end when it did', advance: { to: at(end) } });
    else {
      steps.push({ name: 'let the run end', advance: { seconds: 3600 } });
      assumptions.push('timing: no event gives the end; the run is given an hour');
    }
  }
  if (e.reconciled) {
    steps.push({ name: 'wait until the reconciliation', advance: { to: at(later(e.reconciled.at, e.endedAt) ?? e.reconciled.at) } });
    steps.push({ name: `reconcile: the held reads were ${e.reconciled.confirmed ? '' : 'not '}confirmed`, control: { method: 'POST', path: '/sim/runs/{{runId}}/reconcile', body: { confirmed: e.reconciled.confirmed } } });
  }
  const pending = facts.billing?.status === 'pending';
  const reported = facts.outcome === 'succeeded' || facts.outcome === 'partial';
  steps.push({ name: READ_STEPS.run, call: { method: 'GET', path: '/v1/runs/{{runId}}', key: 'buyer' }, expect: { status: 200 } });
  steps.push({ name: READ_STEPS.billing, call: { method: 'GET', path: `/v1/${rail}/runs/{{runId}}/billing`, key: 'buyer' }, expect: { status: 200 } });
  steps.push({ name: READ_STEPS.receipt, call: { method: 'GET', path: '/v1/runs/{{runId}}/receipt', key: 'buyer' }, expect: { status: pending ? 404 : 200 } });
  steps.push({ name: READ_STEPS.export, call: { method: 'GET', path: '/v1/runs/{{runId}}/export', key: 'buyer' }, expect: { status: reported ? 200 : 409 } });

  const scenario: Scenario = {
    name: `case-${facts.runId || 'quote'}`.slice(0, 200),
    description: `Reproduces run ${facts.runId || '(unknown)'} (${facts.outcome ?? 'outcome unknown'}, ${profile}) from the customer's documents: ${Object.values(facts.files).filter((f, i, all) => all.indexOf(f) === i).join(', ')}.`,
    assumptions,
    ...(startAt ? { startAt } : {}),
    accounts: {
      customer: {
        type: accountTypeOf(profile),
        deposits: { [profile]: funds },
        keys: { buyer: { profile, spendLimitAtomic: funds, scopes: ['catalog:read', 'quotes:write', 'runs:read', 'billing:read', 'runs:cancel'] } },
      },
    },
    steps,
  };
  return { scenario, assumptions };
}

/** The body of POST /sim/runs/{id}/script: the documents' outcome, reads, model cost and duration. */
function scriptOf(facts: CaseFacts, assumptions: string[]): Json {
  const e = facts.events;
  const billing = facts.billing;
  const outcome = facts.outcome === 'cancelled' || facts.outcome === null ? 'succeeded' : facts.outcome;
  if (facts.outcome === 'cancelled') assumptions.push('ending: the run was cancelled, so how it would have ended is unknown; it is scripted to succeed (a cancel charges execution only, whatever the ending)');
  if (facts.outcome === null) assumptions.push('outcome: no document gives it; succeeded');
  const script: Json = { outcome };
  const reads = e.plannedRpcCalls ?? (typeof billing?.authorizedRpcCalls === 'number' ? billing.authorizedRpcCalls : facts.rpcUsed);
  if (reads !== null) script.rpcCalls = reads;
  else assumptions.push("reads: no document gives them; the listing's default");
  // After a reconciliation the billing counts no unresolved reads; the events still tell how many there were.
  const unconfirmed = e.unconfirmedRpcCalls ?? (typeof billing?.unresolvedRpcCalls === 'number' && !e.reconciled ? billing.unresolvedRpcCalls : null);
  if (unconfirmed !== null) script.unconfirmedRpcCalls = unconfirmed;
  const modelCost = (billing?.modelCost as Json | null | undefined)?.usedAtomic ?? e.modelCostAtomic;
  if (typeof modelCost === 'string') script.modelCostAtomic = modelCost;
  else if (facts.outcome !== 'cancelled' && facts.outcome !== 'failed') assumptions.push("model cost: no document gives it; the listing's default share of the cap");
  if (e.durationSeconds !== null) script.durationSeconds = e.durationSeconds;
  else assumptions.push("duration: no event gives it; the listing's default");
  if (outcome === 'failed' && facts.failure && !e.deadlineExceeded) script.failure = facts.failure;
  if (e.deadlineExceeded) script.outcome = 'succeeded';
  if (outcome === 'partial' && facts.coverageGaps?.length) script.coverageGaps = facts.coverageGaps;
  return script;
}

/** Spec 3.4: a canonical_metadata report with the five facts observed that was charged nothing lost its pinned block. */
function reorgNeeded(facts: CaseFacts): string | null {
  if (facts.resultPolicy !== 'canonical_metadata' || (facts.outcome !== 'succeeded' && facts.outcome !== 'partial')) return null;
  const settlement = (facts.billing?.settlement ?? facts.receipt?.settlement) as Json | null | undefined;
  if (!settlement || settlement.chargedAtomic !== '0') return null;
  const canonical = ['name', 'symbol', 'decimals', 'totalSupply', 'bytecode'];
  if (facts.coverageGaps?.some((gap) => canonical.includes(gap))) return null;
  return facts.events.pinned?.chain ?? ((facts.run?.output as Json | undefined)?.chain as string | undefined) ?? null;
}
