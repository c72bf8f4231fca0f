/** GET /sim/report (docs/rehearsal.md): the graded report of a client's conduct, as the client reads it. */
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

export interface SimConductReport {
  score: number;
  doubleReservedAtomic: string;
  keys: string[];
  rules: SimConductRule[];
}
