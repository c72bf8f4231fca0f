/** What a console test waits for: text in the frame, a pattern, or any condition on it. */
export type FrameExpectation = string | RegExp | ((frame: string) => boolean);

/**
 * Waits until the last rendered frame meets `expected`, polling the frame (the
 * condition) rather than sleeping a fixed time before acting; fails with the
 * last frame after `timeoutMs`.
 */
export async function waitForFrame(lastFrame: () => string, expected: FrameExpectation, timeoutMs: number): Promise<string> {
  const test = typeof expected === 'string' ? (f: string) => f.includes(expected) : expected instanceof RegExp ? (f: string) => expected.test(f) : expected;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = lastFrame();
    if (test(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`No frame matched ${String(expected)} within ${timeoutMs} ms. Last frame:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What a console test drives the console with. */
export interface Keyboard {
  press(...keys: string[]): void;
  waitForFrame(expected: FrameExpectation, timeoutMs?: number): Promise<string>;
}

/**
 * The demo agent (d), its quote with the prefilled input (q), accepted (a, then y):
 * the run screen of the new run; returns the first frame that meets `until`.
 */
export async function acceptDemoQuote(console: Keyboard, until: FrameExpectation = /Run [0-9a-f]{8}… Token Research Agent/): Promise<string> {
  console.press('d');
  await console.waitForFrame((f) => f.includes('Token Research Agent') && f.includes('q quote'));
  console.press('q');
  await console.waitForFrame('expires in 4:00');
  console.press('a');
  await console.waitForFrame('acceptedContractHash');
  console.press('y');
  return console.waitForFrame(until);
}
