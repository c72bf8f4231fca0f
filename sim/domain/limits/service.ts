import type { RollingWindows } from './rate-limits.ts';

/** The rolling request limits of spec 8 as one switch: off (serve --no-limits), nothing is counted or refused. */
export function createLimits(windows: RollingWindows, enforced: boolean) {
  return {
    enforced,
    /** Counts one request in `bucket`; null when it may go on, else the whole seconds to wait. */
    refusal(bucket: string, limit: number, nowMs: number): number | null {
      if (!enforced) return null;
      const taken = windows.take(bucket, limit, nowMs);
      return taken.allowed ? null : taken.retryAfterSeconds;
    },
  };
}

export type LimitsService = ReturnType<typeof createLimits>;
