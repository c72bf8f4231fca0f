import { PollTimeoutError } from './errors.ts';
import { realSleep, type Sleep } from './retry.ts';
import type { RunRead, RunStatus } from './types.ts';

/** Spec 3.2: the statuses a run never leaves. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'partial', 'failed', 'cancelled'];

export const isTerminal = (status: RunStatus) => TERMINAL_RUN_STATUSES.includes(status);

export interface PollOptions {
  sleep?: Sleep;
  /** Spec 4.6: "starting at about one second, backing off to about ten". */
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  /** Give up (PollTimeoutError) after this many reads; unbounded by default. */
  maxPolls?: number;
  /** Called with every read, terminal or not (progress display). */
  onPoll?: (read: RunRead) => void;
}

/** The wait after poll number `pollIndex` (0 for the wait after the first read). */
export function pollDelayMs(pollIndex: number, options: Pick<PollOptions, 'initialDelayMs' | 'maxDelayMs' | 'factor'> = {}): number {
  const { initialDelayMs = 1000, maxDelayMs = 10_000, factor = 2 } = options;
  return Math.min(maxDelayMs, initialDelayMs * factor ** pollIndex);
}

/** Reads the run until its status is terminal and returns that last read. */
export async function waitForRun(getRun: (runId: string) => Promise<RunRead>, runId: string, options: PollOptions = {}): Promise<RunRead> {
  const sleep = options.sleep ?? realSleep;
  const maxPolls = options.maxPolls ?? Number.POSITIVE_INFINITY;
  for (let pollIndex = 0; ; pollIndex += 1) {
    const read = await getRun(runId);
    options.onPoll?.(read);
    if (isTerminal(read.run.status)) return read;
    if (pollIndex + 1 >= maxPolls) throw new PollTimeoutError(runId, pollIndex + 1);
    await sleep(pollDelayMs(pollIndex, options));
  }
}
