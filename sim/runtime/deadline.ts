/**
 * A real-time deadline (a stop's grace for requests in flight, sim/app.ts):
 * runs `fn` after `ms` unless cancelled first. Timers live in runtime with the
 * clock; the timer never keeps the process alive by itself.
 */
export function realDeadline(ms: number, fn: () => void): () => void {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
