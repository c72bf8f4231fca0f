import { Low } from 'lowdb';
import { FRAME_SUFFIX_LENGTH, checkFrame } from './checksum.ts';
import { DurableJsonFile } from './durable-json-file.ts';
import type { StoreFs } from './store-fs.ts';
import { StoreFileError } from './store-file-error.ts';
import type { Row } from './store-types.ts';

/**
 * The snapshot file (`PATH`) of version 3, checksummed (sim/store/checksum.ts):
 * the state at `seq` except the rows of archived collections, which are in the
 * archive file it names (its first `length` bytes, whose checksum is `crc`);
 * `journal` is the generation of the journal that follows it. The one format on
 * disk: a file of another version is refused (STORE_VERSION_REFUSAL says what to do).
 */
export interface SnapshotFile {
  format: 'understudy-store';
  /** 3 on disk; 1 only for the state a new store starts from (store-types.ts Snapshot), never read from a file. */
  version: 1 | 3;
  seq: number;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
  archive?: { file: string; length: number; crc?: string } | null;
  journal?: number;
}

/**
 * What a store of another version is told. understudy 0.1.0 was never released: stores
 * of earlier versions came from development builds, and are not converted.
 */
export const STORE_VERSION_REFUSAL =
  'Stores written before this format (earlier development builds of understudy) are not converted: start a new store with --store NEW_PATH, or move this file and the files beside it (.journal, .rows.*, .secrets, .acknowledged) away; a snapshot export (GET /sim/snapshot) of the old build imports into the new one with PUT /sim/snapshot';

/** Reads the snapshot file's bytes, refusing (naming the file) one that is damaged or not a store of a version this build reads. */
export function parseSnapshot(path: string, bytes: Buffer): SnapshotFile {
  const check = checkFrame(bytes, 0, bytes.length);
  if (check === 'damaged') throw new StoreFileError(path, `it does not match its checksum (at byte ${bytes.length - FRAME_SUFFIX_LENGTH}): the file was damaged or edited`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new StoreFileError(path, `it is not valid JSON (${(error as Error).message})`);
  }
  const s = value as Partial<SnapshotFile>;
  if (!s || typeof s !== 'object' || s.format !== 'understudy-store') throw new StoreFileError(path, 'it is not an understudy store (no "format": "understudy-store")');
  if (s.version !== 3) throw new StoreFileError(path, `its version ${JSON.stringify(s.version)} is not the one this build reads (3). ${STORE_VERSION_REFUSAL}`);
  if (check !== 'ok') throw new StoreFileError(path, 'it has no checksum at its end: the file was damaged or edited');
  if (typeof s.seq !== 'number' || !s.meta || typeof s.meta !== 'object' || !s.collections || typeof s.collections !== 'object') {
    throw new StoreFileError(path, 'its "seq", "meta" or "collections" field is missing or of the wrong type');
  }
  const archive = s.archive as { file?: unknown; length?: unknown; crc?: unknown } | null | undefined;
  if (archive != null && (typeof archive.file !== 'string' || !Number.isSafeInteger(archive.length) || (archive.length as number) < 0 || !/^[0-9a-f]{8}$/.test(String(archive.crc)))) {
    throw new StoreFileError(path, 'its "archive" field must name a file, a length and a checksum');
  }
  if (!(Number.isSafeInteger(s.journal) && (s.journal as number) > 0)) throw new StoreFileError(path, 'its "journal" field must be the generation of the journal that follows it');
  return s as SnapshotFile;
}

/**
 * The snapshot as a lowdb document: `read()` fills `data` (null when there is
 * no file yet), a checkpoint sets `data` and calls `write()`. The adapter gives
 * lowdb the checksum and the crash-safe write it does not have itself.
 */
export type SnapshotDocument = Low<SnapshotFile | null>;

export function snapshotDocument(path: string, fs: StoreFs): SnapshotDocument {
  return new Low<SnapshotFile | null>(new DurableJsonFile<SnapshotFile | null>(path, (bytes) => parseSnapshot(path, bytes), fs), null);
}
