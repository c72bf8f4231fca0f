/** Polls `check` until it returns a truthy value (no fixed sleeps); fails naming what it waited for. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000, intervalMs = 10): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
