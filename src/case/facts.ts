import { CaseInputError, type CaseDocument } from './documents.ts';
import { profileOfAssetId, type Profile } from './units.ts';
import { readEvents, type EventFacts } from './event-facts.ts';

/**
 * One case, merged from the customer's documents: what the reproduction needs
 * (listing version, price revision, input, policy, outcome, reads, model cost,
 * timing) and the customer's billing and receipt to compare with. Each fact
 * remembers the file it came from, so a contradiction names both.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export type Outcome = 'succeeded' | 'partial' | 'failed' | 'cancelled';

export interface CaseFacts {
  runId: string;
  profile: Profile | null;
  listingId: string | null;
  versionId: string | null;
  /** The immutable listing version from the export (spec 2.12), when sent. */
  version: Json | null;
  priceRevision: number | null;
  input: Json | null;
  resultPolicy: string | null;
  /** The quote the customer was shown (from the quote answer or the receipt). */
  quote: Json | null;
  run: Json | null;
  outcome: Outcome | null;
  failure: 'platform' | 'research' | null;
  coverageGaps: string[] | null;
  rpcUsed: number | null;
  events: EventFacts;
  billing: Json | null;
  receipt: Json | null;
  files: Partial<Record<DocumentKindField, string>>;
}

type DocumentKindField = 'run' | 'quote' | 'billing' | 'receipt' | 'version' | 'profile';

const OUTCOMES: Outcome[] = ['succeeded', 'partial', 'failed', 'cancelled'];

function runIdOf(doc: CaseDocument): [string | undefined, string] {
  const b = doc.body;
  if (doc.kind === 'export' || doc.kind === 'run') return [(b.run as Json).id as string | undefined, 'run.id'];
  if (doc.kind === 'billing' || doc.kind === 'receipt') return [b.runId as string | undefined, 'runId'];
  return [undefined, ''];
}

/** The profile a document claims, and the field that claims it. */
function profileClaim(doc: CaseDocument): [Profile, string] | null {
  const b = doc.body;
  const claims: Array<[unknown, string]> = [];
  if (doc.kind === 'receipt') {
    const payment = b.payment as Json | undefined;
    claims.push([payment?.assetId, 'payment.assetId'], [(b.quote as Json).assetId, 'quote.assetId']);
  }
  if (doc.kind === 'quote') claims.push([(b.quote as Json).assetId, 'quote.assetId']);
  for (const [assetId, field] of claims) {
    if (typeof assetId !== 'string') continue;
    const profile = profileOfAssetId(assetId);
    if (!profile) throw new CaseInputError(doc.file, field, `names an asset no profile pays in: '${assetId}' (spec 2.2)`);
    return [profile, field];
  }
  return null;
}

export function caseFacts(documents: CaseDocument[]): CaseFacts {
  let runId: string | null = null;
  let runIdFile = '';
  for (const doc of documents) {
    const [id, field] = runIdOf(doc);
    if (id === undefined) continue;
    if (typeof id !== 'string' || id === '') throw new CaseInputError(doc.file, field, 'must be the run id (a UUID string)');
    if (runId !== null && id.toLowerCase() !== runId) throw new CaseInputError(doc.file, field, `is run ${id}, but ${runIdFile} is about run ${runId}: one case is one run`);
    runId ??= id.toLowerCase();
    runIdFile ||= doc.file;
  }
  const find = (kind: CaseDocument['kind']) => documents.find((d) => d.kind === kind);
  const exported = find('export');
  const runRead = find('run');
  const receiptDoc = find('receipt');
  const quoteDoc = find('quote');
  const billingDoc = find('billing');
  const quote = (quoteDoc?.body.quote as Json | undefined) ?? (receiptDoc?.body.quote as Json | undefined) ?? null;
  if (runId === null && quote === null) throw new CaseInputError(documents[0].file, '(documents)', 'name no run: send the export, the run read, the billing or the receipt');

  // The run's own profile is the billing's route and the version's tariffs; the documents must agree on it.
  let profile: Profile | null = null;
  let profileFile = '';
  for (const doc of documents) {
    const claim = profileClaim(doc);
    if (!claim) continue;
    if (profile !== null && claim[0] !== profile) throw new CaseInputError(doc.file, claim[1], `claims profile ${claim[0]}, but ${profileFile} claims ${profile}: the run was paid in one asset`);
    profile ??= claim[0];
    profileFile ||= doc.file;
  }
  const runDoc = exported ?? runRead;
  const run = (runDoc?.body.run as Json | undefined) ?? null;
  const version = (exported?.body.version as Json | undefined) ?? null;
  if (profile && version && Array.isArray(version.tariffs) && !version.tariffs.some((t) => isObject(t) && t.profile === profile)) {
    throw new CaseInputError(exported!.file, 'version.tariffs', `has no tariff for profile ${profile}, which ${profileFile} claims the run was paid in`);
  }
  const status = run?.status;
  if (run && !OUTCOMES.includes(status as Outcome)) {
    throw new CaseInputError(runDoc!.file, 'run.status', `is '${String(status)}': a case needs a run that ended (one of ${OUTCOMES.join(', ')})`);
  }
  const settlement = ((billingDoc?.body.settlement as Json | null) ?? (receiptDoc?.body.settlement as Json | undefined)) || null;
  const outcome = (status as Outcome | undefined) ?? (settlement?.outcome as Outcome | undefined) ?? null;
  const error = isObject(run?.error) ? (run!.error as Json) : null;
  const failure = error?.kind === 'platform' || error?.kind === 'research' ? (error.kind as 'platform' | 'research') : null;
  const output = isObject(run?.output) ? (run!.output as Json) : null;
  const events = readEvents((runDoc?.body.events as unknown[] | undefined) ?? []);
  return {
    runId: runId ?? '',
    profile,
    listingId: str(run?.listingId) ?? str(quote?.listingId) ?? str(version?.listingId),
    versionId: str(version?.id) ?? str(run?.versionId) ?? str(quote?.versionId),
    version,
    priceRevision: typeof version?.priceRevision === 'number' ? version.priceRevision : typeof quote?.priceRevision === 'number' ? (quote.priceRevision as number) : null,
    input: isObject(run?.input) ? (run!.input as Json) : isObject(quote?.input) ? (quote!.input as Json) : null,
    resultPolicy: str(quote?.resultPolicy),
    quote,
    run,
    outcome,
    failure,
    coverageGaps: Array.isArray(output?.coverageGaps) ? (output!.coverageGaps as string[]) : null,
    rpcUsed: typeof run?.rpcUsed === 'number' ? run.rpcUsed : null,
    events,
    billing: billingDoc?.body ?? null,
    receipt: receiptDoc?.body ?? null,
    files: {
      ...(runDoc ? { run: runDoc.file } : {}),
      ...(quoteDoc ? { quote: quoteDoc.file } : receiptDoc ? { quote: receiptDoc.file } : {}),
      ...(billingDoc ? { billing: billingDoc.file } : {}),
      ...(receiptDoc ? { receipt: receiptDoc.file } : {}),
      ...(exported ? { version: exported.file } : {}),
      ...(profileFile ? { profile: profileFile } : {}),
    },
  };
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
