/**
 * Real-time waits for network chaos (sim/http/plugins/chaos.ts): latency before
 * a request is handled, the pauses of a slow body. Timers live in runtime with
 * the clock: they wait on real time, which the rest of sim/ never reads.
 */
export function afterRealMs(ms: number, fn: () => void): void {
  setTimeout(fn, ms).unref();
}
