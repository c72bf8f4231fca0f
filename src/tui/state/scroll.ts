/**
 * Every screen keeps its own scroll (lines from the top, or on a run's
 * timeline lines up from the newest event); a view tells how far its
 * content can scroll, and the slice keeps the position within it.
 */
export const clampScroll = (value: number, maxScroll: number) => Math.min(Math.max(0, maxScroll), Math.max(0, value));
