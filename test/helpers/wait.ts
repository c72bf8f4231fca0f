/**
 * How long anything a test awaits (a child's ready line or exit, an answer, a
 * polled state) may take before it counts as hung: a guard, not a verdict,
 * minutes long so that a machine under heavy load (npm run test:loaded) never
 * reaches it.
 */
export const HANG_GUARD_MS = 5 * 60_000;

/** Polls `check` until it returns a truthy value (no fixed sleeps); fails naming what it waited for (after HANG_GUARD_MS, as hung). */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = HANG_GUARD_MS, intervalMs = 10): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
