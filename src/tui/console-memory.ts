import type { RunListItem } from './state/run.ts';

/**
 * What the console keeps between sessions, so that quitting and starting
 * again continues the same demo. Kept by the process that wires the console
 * (src/cli/console-file.ts, a file beside the store) and handed in, as the
 * webhook receiver is.
 */
export interface ConsoleMemory {
  /** Where it is kept (a path), said on screen. */
  where: string;
  /**
   * The runs this console accepted through a key. Spec 4 gives a key no run
   * list, so against a remote service this is all the console can list.
   */
  runs(keyId: string): RunListItem[];
  setRuns(keyId: string, runs: RunListItem[]): void;
  /** The destination the inbox was last pointed at: a new session's receiver listens elsewhere, so it is replaced. */
  inboxDestinationId(): string | null;
  setInboxDestinationId(id: string | null): void;
}
