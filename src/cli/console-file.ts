import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { ConsoleMemory } from '../tui/console-memory.ts';
import type { RunListItem } from '../tui/state/run.ts';

/** A key whose secret the console holds: the store keeps only hashes, so this file is the one place it survives a restart. */
export interface SavedKey {
  name: string;
  profile: string;
  accountId: string | null;
  keyId: string;
  secret: string;
}

interface ConsoleFileData {
  keys: SavedKey[];
  runsByKey: Record<string, RunListItem[]>;
  inboxDestinationId: string | null;
}

/** Beside the store and named for it (`.understudy/store.json` → `.understudy/store.console.json`), so each store has its own. */
export function consoleFilePath(storePath: string): string {
  return join(dirname(storePath), `${basename(storePath, extname(storePath))}.console.json`);
}

export class ConsoleFileError extends Error {}

/**
 * What the console keeps between sessions, in one small JSON file: the key
 * secrets it was given or made, the runs it accepted per key, and the
 * destination its inbox was pointed at. Holding secrets, it is written for
 * its owner only (mode 0600), like the store it sits beside.
 */
export class ConsoleFile implements ConsoleMemory {
  private constructor(
    readonly where: string,
    private data: ConsoleFileData,
  ) {}

  static open(path: string): ConsoleFile {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new ConsoleFile(path, { keys: [], runsByKey: {}, inboxDestinationId: null });
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<ConsoleFileData>;
      return new ConsoleFile(path, { keys: parsed.keys ?? [], runsByKey: parsed.runsByKey ?? {}, inboxDestinationId: parsed.inboxDestinationId ?? null });
    } catch {
      // Rewriting it would lose the secrets it may still hold.
      throw new ConsoleFileError(`Cannot read the console's file ${path}: it is not valid JSON. It was left untouched; fix or delete it.`);
    }
  }

  /** A new store: only its keys carry over; runs and destinations of the previous one are gone. */
  startOver(keys: SavedKey[]): void {
    this.data = { keys, runsByKey: {}, inboxDestinationId: null };
    this.write();
  }

  keys(): SavedKey[] {
    return [...this.data.keys];
  }

  setKeys(keys: SavedKey[]): void {
    this.data = { ...this.data, keys };
    this.write();
  }

  runs(keyId: string): RunListItem[] {
    return [...(this.data.runsByKey[keyId] ?? [])];
  }

  setRuns(keyId: string, runs: RunListItem[]): void {
    this.data = { ...this.data, runsByKey: { ...this.data.runsByKey, [keyId]: runs } };
    this.write();
  }

  inboxDestinationId(): string | null {
    return this.data.inboxDestinationId;
  }

  setInboxDestinationId(id: string | null): void {
    this.data = { ...this.data, inboxDestinationId: id };
    this.write();
  }

  /** Whole-file replace through a temporary file, so a crash mid-write leaves the previous version. */
  private write(): void {
    mkdirSync(dirname(this.where), { recursive: true });
    const temporary = `${this.where}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.where);
  }
}
