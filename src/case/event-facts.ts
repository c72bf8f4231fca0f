/**
 * What a run's events (spec 2.9) tell about its timing and its reads, read
 * from the simulator's event steps and messages. A production service's
 * messages may differ; what is not found stays null and becomes an assumption.
 */
export interface EventFacts {
  acceptedAt: string | null;
  startedAt: string | null;
  /** The first half of the reads is done a quarter of the duration after the start: so the duration is exact. */
  durationSeconds: number | null;
  plannedRpcCalls: number | null;
  unconfirmedRpcCalls: number | null;
  modelCostAtomic: string | null;
  pinned: { chain: string; block: string } | null;
  cancelledAt: string | null;
  reconciled: { at: string; confirmed: boolean } | null;
  endedAt: string | null;
  deadlineExceeded: boolean;
}

interface Event {
  step?: unknown;
  message?: unknown;
  createdAt?: unknown;
}

// The look-behind starts a match only at the first digit of a number: without it a long run of digits is retried from each digit (quadratic; a 200,000-digit message took minutes).
const READS = /(?<!\d)(\d+) of (\d+) blockchain reads done \((\d+) without a confirmed receipt\)/;
const PINNED = /evidence pinned at (\w+) block (\d+)/;
const MODEL = /AI analysis used (0|[1-9][0-9]*) of the model cost cap/;
const ENDINGS = ['succeeded', 'partial', 'failed', 'cancelled', 'deadline-exceeded'];

export function readEvents(events: unknown[]): EventFacts {
  const facts: EventFacts = {
    acceptedAt: null, startedAt: null, durationSeconds: null, plannedRpcCalls: null, unconfirmedRpcCalls: null,
    modelCostAtomic: null, pinned: null, cancelledAt: null, reconciled: null, endedAt: null, deadlineExceeded: false,
  };
  let firstReadsAt: string | null = null;
  // Events are newest-last in an export and a run read alike; sort by time to be safe with a hand-edited file.
  const sorted = (events.filter((e) => typeof e === 'object' && e !== null) as Event[])
    .map((e, i) => ({ e, i }))
    .sort((a, b) => String(a.e.createdAt).localeCompare(String(b.e.createdAt)) || a.i - b.i)
    .map(({ e }) => e);
  for (const event of sorted) {
    const step = String(event.step ?? '');
    const message = String(event.message ?? '');
    const at = typeof event.createdAt === 'string' ? event.createdAt : null;
    if (step === 'queued') facts.acceptedAt ??= at;
    if (step === 'started') {
      facts.startedAt = at;
      const pinned = PINNED.exec(message);
      if (pinned) facts.pinned = { chain: pinned[1], block: pinned[2] };
    }
    const reads = READS.exec(message);
    if (step === 'chain-reads' && reads) {
      firstReadsAt ??= at;
      facts.plannedRpcCalls = Number(reads[2]);
      facts.unconfirmedRpcCalls = Number(reads[3]);
    }
    if (step === 'analysis') facts.modelCostAtomic = MODEL.exec(message)?.[1] ?? (message.startsWith('No AI analysis') ? '0' : facts.modelCostAtomic);
    if (step === 'cancel-requested') facts.cancelledAt = at;
    if (step === 'reconciled' && at) facts.reconciled = { at, confirmed: !/not confirmed/.test(message) };
    if (ENDINGS.includes(step)) facts.endedAt ??= at;
    if (step === 'deadline-exceeded') facts.deadlineExceeded = true;
  }
  if (facts.startedAt && firstReadsAt) facts.durationSeconds = ((Date.parse(firstReadsAt) - Date.parse(facts.startedAt)) * 4) / 1000;
  return facts;
}
