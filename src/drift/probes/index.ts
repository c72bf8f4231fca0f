import { CATALOG_PROBES } from './catalog.ts';
import { DESCRIPTION_PROBE } from './description.ts';
import { quoteProbes } from './quotes.ts';
import { refusalProbes } from './refusals.ts';
import type { ProbeDef } from './types.ts';

export type { ProbeDef, ProbeKind, Side, SideContext } from './types.ts';

/**
 * The probe set, in the order it is sent: every request is free (reads,
 * quotes that reserve nothing, refusals before any reservation). `token`
 * makes this run's idempotency keys its own.
 */
export function probeSet(token: string): ProbeDef[] {
  return [...CATALOG_PROBES, DESCRIPTION_PROBE, ...quoteProbes(`drift-${token}`), ...refusalProbes(`drift-monitor-${token}`)];
}
