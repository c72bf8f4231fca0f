/**
 * Node's own `process.nextTick`, run ten thousand times when the first simulator of a
 * process starts listening (buildSimulator's onListen hook; later ones find it done).
 *
 * Why: Node builds each tick as an object literal with two computed symbol keys.
 * Measured with `perf` on Node 20 (V8 11.3), every simulator process built them
 * through V8's runtime (`Runtime_DefineKeyedOwnPropertyInLiteral`, about fifteen per
 * request, from Node's streams) while a bare Fastify server never did; with these
 * ticks run first no process did, and a keyed GET took about a fifth less server CPU
 * (docs/benchmarks.md, "two costs every request paid"). `%DebugPrint(process.nextTick)`
 * (--allow-natives-syntax) shows how: without the warm-up, the literal's property
 * definitions after the first are MEGAMORPHIC seconds after the start, before any
 * load, so V8's optimised code calls the runtime for them; run hot at listen, nextTick
 * is optimised while they are MONOMORPHIC and they stay so. A thousand or three thousand
 * ticks were not enough; ten thousand take 10–20 ms, hence after listening, not before.
 * The ticks do nothing: this changes no behaviour, only when V8 settles on how to
 * build them.
 */
const BATCHES = 10;
const PER_BATCH = 1000;

let warmed: Promise<void> | null = null;

export function warmNextTick(): Promise<void> {
  warmed ??= (async () => {
    const nothing = () => {};
    for (let batch = 0; batch < BATCHES; batch += 1) {
      for (let i = 0; i < PER_BATCH; i += 1) process.nextTick(nothing);
      // Drained before the next batch, as a server's ticks are.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  })();
  return warmed;
}
