import type { ConductLine } from './line.ts';

/** What the ledger holds for one run (the simulator's own books, read when the report is made). */
export interface RunMoney {
  status: string;
  /** Reserved at acceptance (the quote maximum). */
  reservedAtomic: string;
  /** Charged so far (settlement and reconciliation). */
  chargedAtomic: string;
  /** Still reserved or pending: not yet charged nor returned. */
  heldAtomic: string;
}

export interface LostRun extends RunMoney {
  keyId: string;
  runId: string;
  /** The run the client bought next under another idempotencyKey, whose answer it did get. */
  boughtInstead: string | null;
  lines: ConductLine[];
}

export interface LostAnswers {
  runs: LostRun[];
  reservedAtomic: string;
  chargedAtomic: string;
  heldAtomic: string;
  /** False when some key's oldest lines were dropped: a lost accept among them is not counted. */
  complete: boolean;
}

/**
 * Runs a key's client never learned of: an accept committed (202) but its answer
 * never reached the client, and no later delivered answer of the key named that
 * run (a replay with the same idempotencyKey would have). Whoever's fault the loss
 * was, the account pays for the run. A refused accept (a 409) made no run and
 * reserved nothing, so it never appears here.
 */
export function lostRuns(keyId: string, lines: readonly ConductLine[]): Array<{ keyId: string; runId: string; boughtInstead: string | null; lines: ConductLine[] }> {
  const accepts = lines.filter((l) => l.group === 'accept' && l.runId !== undefined);
  const learned = new Set(accepts.filter((l) => l.answered).map((l) => l.runId));
  const lost = new Map<string, ConductLine>();
  for (const line of accepts) if (!learned.has(line.runId) && !lost.has(line.runId!)) lost.set(line.runId!, line);
  return [...lost.values()].map((line) => {
    const instead = accepts.find((l) => l.seq > line.seq && l.answered && l.runId !== line.runId && l.idempotencyKeyHash !== line.idempotencyKeyHash);
    return { keyId, runId: line.runId!, boughtInstead: instead?.runId ?? null, lines: instead ? [line, instead] : [line] };
  });
}

/** The lost runs of every key, with what each cost the account, and the totals. */
export function lostAnswers(found: ReturnType<typeof lostRuns>, moneyOf: (runId: string) => RunMoney, complete: boolean): LostAnswers {
  const runs = found.map((run) => ({ ...run, ...moneyOf(run.runId) }));
  const total = (field: 'reservedAtomic' | 'chargedAtomic' | 'heldAtomic') => runs.reduce((sum, run) => sum + BigInt(run[field]), 0n).toString();
  return { runs, reservedAtomic: total('reservedAtomic'), chargedAtomic: total('chargedAtomic'), heldAtomic: total('heldAtomic'), complete };
}
