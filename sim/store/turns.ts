import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Rows a pass over a whole state handles between two turns of the event loop, when it
 * runs while serving (a snapshot import: its shape check, filling the new memory, the
 * checkpoint's capture of it and pointing it at the archive), so that other requests are
 * answered meanwhile. A pass is written as a generator that yields every ROWS_PER_TURN
 * rows; runWhole() runs it in one synchronous step where it must not be interleaved (a
 * store opening, a checkpoint of the state in service), runInTurns() lets the loop turn.
 *
 * Figure: the costliest of those passes, the fill, took about 6.4 µs a row on 2 shared
 * cores at load 13 (2.1 s for the 326,538 rows of the bench's 20,000-run store), the
 * others 2 to 2.3 µs. At 2,000 rows a slice is then ≈13 ms under that load, well inside
 * the 200 ms an import may hold other requests up (issue 29), and the 650 or so turns
 * of an import of that store add little to its duration.
 */
export const ROWS_PER_TURN = 2_000;

/** Runs a pass to its end in one synchronous step; its result. */
export function runWhole<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs a pass to its end, letting other callbacks (requests) run at each of its yields; its result. */
export async function runInTurns<T>(steps: Generator<void, T, void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}
