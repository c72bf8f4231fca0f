/** The record of a scheduled job. Stored, one interface per collection. */

export interface Job {
  id: string;
  dueAtMs: number;
  seq: number;
  kind: string;
  ref: string;
}
