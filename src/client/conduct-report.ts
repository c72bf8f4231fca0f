/** GET and PUT /sim/chaos: the profile in force (null: none), the fault stream's seed, and the /v1 requests decided since it was set. */
export interface SimChaos {
  profile: ({ name: string } & Record<string, unknown>) | null;
  seed: string;
  decided: number;
}

/** GET /sim/report (docs/drill.md): the graded report of a client's conduct, as the client reads it. */
export interface SimConductLine {
  method: string;
  route: string;
  at: string;
  realMs: number;
  status: number | null;
  answered: boolean;
  chaos: string[];
}

export interface SimConductRule {
  id: string;
  title: string;
  spec: string;
  verdict: 'pass' | 'fail' | 'not-exercised';
  evidence: Array<{ keyId: string; note: string; lines: SimConductLine[] }>;
}

/** A run the client never learned of (its accept's answer was lost), and what it cost the account. */
export interface SimLostRun {
  keyId: string;
  runId: string;
  status: string;
  reservedAtomic: string;
  chargedAtomic: string;
  heldAtomic: string;
  boughtInstead: string | null;
  lines: SimConductLine[];
}

export interface SimConductReport {
  score: number;
  keys: string[];
  rules: SimConductRule[];
  truncated: Array<{ keyId: string; dropped: number }>;
  lostAnswers: { runs: SimLostRun[]; reservedAtomic: string; chargedAtomic: string; heldAtomic: string; complete: boolean };
}

/** What lost answers cost: each run the client never learned of, then the totals (atomic units, exact). */
export function lostAnswerLines(lost: SimConductReport['lostAnswers']): string[] {
  if (lost.runs.length === 0) return [];
  const lines = ['', `Runs the client never learned of (an accept's answer was lost and never replayed): ${lost.runs.length}`];
  for (const run of lost.runs) {
    lines.push(`  run ${run.runId} (${run.status}), key ${run.keyId}`);
    lines.push(`    reserved ${run.reservedAtomic}, charged ${run.chargedAtomic}, still held ${run.heldAtomic}${run.boughtInstead ? `; bought instead: run ${run.boughtInstead}` : ''}`);
  }
  lines.push(`  in all: reserved ${lost.reservedAtomic}, charged ${lost.chargedAtomic}, still held ${lost.heldAtomic} atomic units${lost.complete ? '' : ' (lines were dropped: there may be more)'}`);
  return lines;
}
