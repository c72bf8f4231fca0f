import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Journal } from './journal.ts';
import { journalHeader } from './journal-format.ts';
import { RowArchive, type RowPointer } from './row-archive.ts';
import type { Slot } from './row-table.ts';
import type { SnapshotDocument, SnapshotFile } from './snapshot-file.ts';
import type { StorePaths } from './store-paths.ts';
import type { StoreFs } from './store-fs.ts';
import type { StoreMemory } from './store-memory.ts';
import type { Row } from './store-types.ts';
import { ROWS_PER_TURN, runInTurns, runWhole } from './turns.ts';
import type { UndoLog } from './undo-log.ts';

/** An archive this much larger than its live rows is rewritten at the next checkpoint. */
const ARCHIVE_SLACK = 2;
const ARCHIVE_MIN_REWRITE_BYTES = 8 << 20;

/** A whole state written in place of the one in service, and how it is put into service once on disk. */
export interface StagedState {
  memory: StoreMemory;
  meta: Record<string, unknown>;
  promote(): void;
}

/** What a checkpoint works on: the store's memory and journal as they are when it starts. */
export interface CheckpointInputs {
  memory(): StoreMemory;
  journal(): Journal;
  undo: UndoLog;
  /** The meta values to write, volatile ones included. */
  meta(): Record<string, unknown>;
}

/**
 * Checkpoints, and the files they leave: the archive in use (and its
 * generation), the generation of the journal, and the sizes the size trigger
 * compares. A checkpoint moves the archived collections' rows out of memory
 * into the archive, writes the snapshot (durable-json-file.ts),
 * then cuts the journal down to what came after it; it runs while serving.
 */
export class Checkpointer {
  archive: RowArchive | null = null;
  generation = 0;
  /** The generation of the journal on disk; the next checkpoint starts the next one. */
  journalGeneration = 0;
  /** Characters in the journal file and bytes of the last snapshot written (or read): what the size trigger compares. */
  journalBytes = 0;
  snapshotBytes = 0;
  constructor(
    private readonly paths: StorePaths,
    private readonly snapshotFile: SnapshotDocument,
    private readonly fs: StoreFs,
    private readonly inputs: CheckpointInputs,
  ) {}

  /**
   * `staged`: a whole new state to write instead of the one in service (replaceAll):
   * it is promoted into service in the same synchronous step as it commits, so no
   * request ever reads the state in service through the new archive's pointers.
   */
  async run(forceRewrite: boolean, staged?: StagedState): Promise<void> {
    const memory = staged?.memory ?? this.inputs.memory();
    const journal = this.inputs.journal();
    // Captured in one synchronous step: the state at `seq`.
    const seq = memory.seq;
    const meta = staged?.meta ?? this.inputs.meta();
    // An archive from before checksums is rewritten whole, with them.
    const rewrite = forceRewrite || this.archive === null || (this.archive.size > ARCHIVE_SLACK * memory.liveArchiveBytes && this.archive.size > ARCHIVE_MIN_REWRITE_BYTES);
    // A staged state is out of service until it commits, so nothing changes it between the capture's
    // turns; the state in service is captured in one step.
    const capture = captureSteps(memory, rewrite);
    const { inline, moved } = staged ? await runInTurns(capture) : runWhole(capture);
    const pendingTombstones = memory.tombstones;
    // A tombstone whose row is archived again was taken back with the delete that made it (see UndoLog.rollBack).
    const tombstones = rewrite ? [] : pendingTombstones.filter(([collection, id]) => typeof memory.tables.get(collection)?.get(id) !== 'number');
    memory.tombstones = [];
    const journalGeneration = this.journalGeneration + 1;
    journal.markRotation();
    // The snapshot may only hold what the journal holds: the lines of the state
    // captured above must be on disk (or refused, and this checkpoint with them)
    // before the snapshot commits it.
    const captured = journal.settled();
    // Awaited below, after the archive's append; a refusal meanwhile is not unhandled.
    captured.catch(() => undefined);
    const previous = this.archive;
    const committedLength = previous?.size ?? 0;
    let archive: RowArchive | null = null;
    let committed = false;
    const journalBytesAtMark = this.journalBytes;
    try {
      const generation = rewrite ? this.generation + 1 : this.generation;
      archive = rewrite ? await RowArchive.create(this.paths.archive(generation), this.fs) : previous!;
      // Tombstones first: a row deleted and written again since the last checkpoint is in `moved`.
      // A row in memory is written out as the append reaches it, not all at the capture: rows are
      // frozen, so the text is the same, and the append's writes let requests run between batches
      // (an imported store puts every row in memory).
      const entries = function* () {
        for (const [collection, id] of tombstones) yield { collection, id, rowText: null };
        for (const m of moved) yield { collection: m.collection, id: m.id, group: m.group, rowText: typeof m.slot === 'number' ? previous!.rowText(m.slot) : JSON.stringify(m.slot) };
      };
      const pointers = (await archive.append(entries())).slice(tombstones.length);
      // Rows too long to point at stay inline in the snapshot (and in memory).
      moved.forEach((m, i) => {
        if (pointers[i] === null) (inline[m.collection] ??= {})[m.id] = memory.resolve(m.slot)!;
      });
      await captured;
      this.snapshotFile.data = { format: 'understudy-store', version: 3, seq, meta, collections: inline, archive: { file: basename(archive.path), length: archive.size, crc: archive.checksum }, journal: journalGeneration };
      await this.snapshotFile.write();
      committed = true;
      staged?.promote();
      if (rewrite) {
        // Before any row points into it: a staged state, in service now, is read between the turns below.
        this.archive = archive;
        this.generation = generation;
        // Pointers are positions in one generation's file: the next one reuses the numbers.
        memory.recentlyRead.clear();
      }
      // Committed: point at the archived rows that nobody rewrote meanwhile. In turns only for a staged
      // state, which holds no pointers yet: pointers of the state in service into the previous
      // generation must all be replaced in the step its archive is.
      const relocated = rewrite ? new Map<RowPointer, Slot>() : null;
      const pointing = pointAtArchiveSteps(memory, moved, pointers, inline, relocated);
      if (staged) await runInTurns(pointing);
      else runWhole(pointing);
      // Lines written since the capture, not yet on disk, may have to give back rows of the old generation.
      if (relocated) this.inputs.undo.relocate(relocated);
    } catch (error) {
      journal.dropMark();
      if (!committed) {
        // The old snapshot still names the old archive and length: bytes appended
        // past it are forgotten (the next append writes over them, an open cuts them
        // off), a new generation is removed, and the tombstones are due again.
        if (archive === previous) previous?.abandon(committedLength);
        else if (archive) await dropArchive(archive);
        memory.tombstones = [...pendingTombstones, ...memory.tombstones];
      }
      throw error;
    }
    // What follows the commit only gives space back: a previous generation left
    // behind is removed at the next open, and a journal that could not be rotated
    // stays in use whole (its lines up to `seq` are skipped at open). Neither
    // makes the committed checkpoint untrue, so neither fails it.
    if (rewrite && previous) await dropArchive(previous);
    // A rotation rewrites every line since the capture to free the ones before it.
    // When a burst of writes ran meanwhile (a fast-forward: the checkpoint's own
    // writes wait for the event loop while the jobs run), it would write more than
    // it frees, and the whole burst a second time: the journal then stays whole,
    // as after a failed rotation, and the size trigger starts the next checkpoint,
    // whose capture comes after the burst. A rotation is skipped only when the
    // journal more than doubled while the checkpoint ran.
    const worthRotating = this.journalBytes - journalBytesAtMark <= journalBytesAtMark;
    if (!worthRotating) journal.dropMark();
    const rotated =
      worthRotating &&
      (await journal.rotate(journalHeader(journalGeneration, seq)).then(
        () => true,
        () => false,
      ));
    if (rotated) {
      this.journalGeneration = journalGeneration;
      this.journalBytes -= journalBytesAtMark;
    }
    // After the rotation, so that the journal kept is no longer than before; a failed look keeps the last size.
    this.snapshotBytes = await stat(this.paths.snapshot).then((st) => st.size, () => this.snapshotBytes);
  }
}

/** An archive generation no snapshot names any more: closed and removed (it gives back its space). */
export async function dropArchive(archive: RowArchive): Promise<void> {
  await archive.close().catch(() => undefined);
  await RowArchive.remove(archive.path).catch(() => undefined);
}

/** A row a checkpoint moves into the archive: its slot when captured and its group. */
interface MovedRow {
  collection: string;
  id: string;
  slot: Slot;
  group: string | undefined;
}

/**
 * What a checkpoint writes of `memory`: the rows that stay in the snapshot, and the rows
 * it moves into the archive (every archived row when the archive is rewritten); a pass
 * over those rows (turns.ts).
 */
function* captureSteps(memory: StoreMemory, rewrite: boolean): Generator<void, { inline: SnapshotFile['collections']; moved: MovedRow[] }, void> {
  const inline: SnapshotFile['collections'] = {};
  const moved: MovedRow[] = [];
  let looked = 0;
  for (const [name, table] of memory.tables) {
    if (!memory.isArchived(name)) {
      const rows: Record<string, Row> = (inline[name] = {});
      for (const [id, slot] of table.entries()) {
        rows[id] = slot as Row;
        if (++looked % ROWS_PER_TURN === 0) yield;
      }
      continue;
    }
    // Named even when empty, so the set of collections survives a reopen.
    inline[name] = {};
    if (rewrite) {
      for (const [id, slot] of table.entries()) {
        moved.push({ collection: name, id, slot, group: table.groupKeyOf(id) });
        if (++looked % ROWS_PER_TURN === 0) yield;
      }
      continue;
    }
    // Only the rows in memory move: a checkpoint costs what changed since the last one, not the whole
    // history (walking every archived row made a fast-forward of 100,000 logs, ≈40 checkpoints, quadratic).
    // They came into memory in the order they were created (or rewritten, when archived already, so their place is kept).
    for (const row of table.residentRows()) {
      moved.push({ collection: name, id: row.id, slot: row, group: table.groupKeyOf(row.id) });
      if (++looked % ROWS_PER_TURN === 0) yield;
    }
  }
  return { inline, moved };
}

/**
 * Once a checkpoint has committed: each moved row that nobody rewrote meanwhile is
 * pointed at in the archive (`pointers`, by the index in `moved`; null: the row stays
 * inline), and with a rewrite each old pointer's new slot goes into `relocated`; a pass
 * over the moved rows (turns.ts).
 */
function* pointAtArchiveSteps(memory: StoreMemory, moved: MovedRow[], pointers: Array<RowPointer | null>, inline: SnapshotFile['collections'], relocated: Map<RowPointer, Slot> | null): Generator<void, void, void> {
  for (let i = 0; i < moved.length; i += 1) {
    const m = moved[i];
    const pointer = pointers[i];
    if (relocated && typeof m.slot === 'number') relocated.set(m.slot, pointer ?? inline[m.collection][m.id]);
    if (pointer !== null && memory.tables.get(m.collection)!.get(m.id) === m.slot) memory.setSlot(m.collection, m.id, pointer);
    if ((i + 1) % ROWS_PER_TURN === 0) yield;
  }
}
