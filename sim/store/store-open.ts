import { readFile, readdir, truncate as truncateFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AcknowledgedSeq } from './acknowledged-seq.ts';
import { temporaryOf, writeFileDurably } from './durable-json-file.ts';
import { entriesAfter, journalHeader, journalLine, parseJournal, type JournalEntry, type ParsedJournal } from './journal-format.ts';
import { RowArchive } from './row-archive.ts';
import { snapshotDocument, type SnapshotDocument, type SnapshotFile } from './snapshot-file.ts';
import { StoreFileError } from './store-file-error.ts';
import type { StoreFs } from './store-fs.ts';
import type { StorePaths } from './store-paths.ts';
import type { Snapshot } from './store-types.ts';

/** What open found on disk, every part checked against the others; nothing changed yet. */
export interface StoreFiles {
  document: SnapshotDocument;
  /** The snapshot on disk (null: none, a new store). */
  stored: SnapshotFile | null;
  /** What the store starts from: the snapshot, or the initial one of a new store. */
  file: SnapshotFile;
  journal: ParsedJournal | null;
  journalBytes: Buffer | null;
  /** The journal's changes after the snapshot. */
  entries: JournalEntry[];
  /** Whether the journal on disk is the one the snapshot names (else it is rewritten). */
  current: boolean;
  /** Names of the archive files in the store's directory. */
  archives: string[];
}

/**
 * Reads and checks the snapshot, the journal and the record of the last
 * acknowledged change against each other. The whole store is checked before
 * any file is changed: a store refused is left exactly as found.
 */
export async function readStoreFiles(paths: StorePaths, initial: () => Snapshot, fs: StoreFs): Promise<StoreFiles> {
  const document = snapshotDocument(paths.snapshot, fs);
  await document.read();
  const stored = document.data;
  const journalBytes = await readJournal(paths.journal);
  const journal = journalBytes === null ? null : parseJournal(paths.journal, journalBytes);
  const archives = await archiveFiles(paths);
  if (stored === null) refuseLeftovers(paths, journal, journalBytes, archives);
  const file: SnapshotFile = stored ?? initial();
  const { entries, current } = stored === null ? { entries: [], current: false } : journalAfter(paths, stored, journal);
  await refuseUnacknowledgedEnd(paths, stored === null ? null : entries.length > 0 ? entries[entries.length - 1].s : file.seq);
  return { document, stored, file, journal, journalBytes, entries, current, archives };
}

/**
 * Opens the archive the snapshot names, changing nothing (RowArchive.scan then
 * checks it): its generation, and the archive (null: absent with nothing of it committed).
 */
export async function openNamedArchive(paths: StorePaths, named: NonNullable<SnapshotFile['archive']>, fs: StoreFs): Promise<{ generation: number; archive: RowArchive | null }> {
  const match = /\.rows\.(\d+)$/.exec(named.file);
  if (!match || named.file !== basename(paths.archive(Number(match[1])))) {
    throw new StoreFileError(paths.snapshot, `its archive ${JSON.stringify(named.file)} is not one of this store's archive files`);
  }
  const generation = Number(match[1]);
  return { generation, archive: await RowArchive.open(paths.archive(generation), named.length, named.crc!, fs) };
}

/**
 * Once the whole store is checked: what the snapshot proves was never committed
 * goes (a torn journal tail, an archive's uncommitted tail, archive generations
 * it does not name, temporary files of writes a crash cut short), and a journal
 * that is not the one the snapshot expects is written anew. Returns the
 * generation of the journal now on disk.
 */
export async function settleStoreFiles(paths: StorePaths, found: StoreFiles, archive: RowArchive | null, fs: StoreFs): Promise<number> {
  const { stored, file, journal, journalBytes, entries } = found;
  await removeTemporaries(paths);
  await archive?.cutUncommittedTail();
  for (const name of found.archives) if (name !== (file.archive?.file ?? null)) await RowArchive.remove(join(dirname(paths.snapshot), name));
  const generation = stored === null ? 0 : stored.journal!;
  if (found.current) {
    // A torn last line was never acknowledged (answers wait for the flush), so it is cut off.
    if (journal!.validLength < journalBytes!.length) await truncateFile(paths.journal, journal!.validLength);
  } else {
    // A new store, one from before checksums, or a checkpoint stopped between its snapshot and its journal: the
    // journal is written whole as the one the snapshot expects, so it is never one whose emptying would go unseen.
    await writeFileDurably(paths.journal, journalHeader(generation, file.seq) + entries.map((e) => journalLine(e.m ? { s: e.s, o: e.o, m: e.m } : { s: e.s, o: e.o })).join(''), fs);
  }
  return generation;
}

/**
 * Refuses a store whose files end before the last change that was acknowledged:
 * `reached` is the last change they hold (null: no snapshot, so none).
 */
async function refuseUnacknowledgedEnd(paths: StorePaths, reached: number | null): Promise<void> {
  const acknowledged = await AcknowledgedSeq.read(paths.acknowledged);
  if (acknowledged === null || (reached !== null && reached >= acknowledged)) return;
  const witness = basename(paths.acknowledged);
  if (reached === null) throw new StoreFileError(paths.snapshot, `it is missing, but ${witness} records change ${acknowledged} as acknowledged`);
  throw new StoreFileError(paths.journal, `it ends at change ${reached}, but ${witness} records change ${acknowledged} as acknowledged: acknowledged changes were cut off`);
}

/**
 * The journal's entries after the snapshot `file`, checked against it; `current`
 * when the journal on disk is the one the snapshot names (else it is rewritten).
 */
function journalAfter(paths: StorePaths, file: SnapshotFile, journal: ParsedJournal | null): { entries: JournalEntry[]; current: boolean } {
  const snapshot = basename(paths.snapshot);
  const expected = file.journal!;
  if (journal === null) throw new StoreFileError(paths.journal, `it is missing, but the snapshot ${snapshot} expects journal ${expected} to follow it: its changes would be lost`);
  if (journal.header === null) throw new StoreFileError(paths.journal, `line 1 (byte 0) is not the header naming the snapshot the journal follows (the file was emptied, cut or replaced): the snapshot ${snapshot} expects journal ${expected}`);
  const header = journal.header;
  if (header.journal === expected && header.after === file.seq) return { entries: entriesAfter(paths.journal, journal, file.seq), current: true };
  // A checkpoint stopped after writing the snapshot, before starting the next journal.
  if (header.journal === expected - 1 && header.after <= file.seq) return { entries: entriesAfter(paths.journal, journal, file.seq), current: false };
  throw new StoreFileError(
    paths.journal,
    `its header (line 1) names journal ${header.journal} following change ${header.after}, but the snapshot ${snapshot} (change ${file.seq}) expects journal ${file.journal}: the two do not belong together`,
  );
}

/**
 * With no snapshot, a new store is started only where nothing would be lost:
 * no journal with changes and no archive, unless they are what a store being
 * created left (a journal of generation 0 with no entries).
 */
function refuseLeftovers(paths: StorePaths, journal: ParsedJournal | null, journalBytes: Buffer | null, archives: string[]): void {
  const creationStopped = journal?.header?.journal === 0 && journal.entries.length === 0;
  if (creationStopped) return;
  const parts = [...(journalBytes !== null && journalBytes.length > 0 ? [paths.journal] : []), ...archives.map((name) => join(dirname(paths.snapshot), name))];
  if (parts.length > 0) {
    throw new StoreFileError(paths.snapshot, `it is missing, but ${parts.join(' and ')} ${parts.length > 1 ? 'hold' : 'holds'} a store's data: restore the snapshot, or move ${parts.length > 1 ? 'them' : 'it'} away to start a new store`);
  }
}

/**
 * The temporary files of a snapshot or journal rotation that a crash cut short
 * (the rename that would have committed them never ran): never part of the store.
 */
async function removeTemporaries(paths: StorePaths): Promise<void> {
  for (const temporary of [temporaryOf(paths.snapshot), temporaryOf(paths.journal)]) {
    await unlink(temporary).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw new StoreFileError(temporary, `it is a leftover of an interrupted write and could not be removed (${error.message})`);
    });
  }
}

/** Names of this store's archive files (`PATH.rows.N`) in its directory. */
async function archiveFiles(paths: StorePaths): Promise<string[]> {
  const prefix = `${basename(paths.snapshot)}.rows.`;
  return (await readdir(dirname(paths.snapshot))).filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)));
}

async function readJournal(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, (error as Error).message);
  }
}
