import { stat } from 'node:fs/promises';
import { AcknowledgedSeq } from './acknowledged-seq.ts';
import { Checkpointer, type CheckpointInputs } from './checkpoint.ts';
import { Journal } from './journal.ts';
import { openNamedArchive, readStoreFiles, settleStoreFiles } from './store-open.ts';
import type { StorePaths } from './store-paths.ts';
import type { StoreFs } from './store-fs.ts';
import type { Snapshot } from './store-types.ts';
import { runWhole } from './turns.ts';

/**
 * Opens a store's files into its memory (`inputs.memory()`): every part is
 * read and checked against the others first (store-open.ts; the archive's scan
 * fills the pointers as it checks), only then are leftovers tidied away, the
 * snapshot's rows loaded and the journal's changes replayed over them. `created`:
 * there was no snapshot, so the state is `initial()` and its first checkpoint is due.
 */
export async function loadStore(paths: StorePaths, initial: () => Snapshot, fs: StoreFs, inputs: CheckpointInputs): Promise<{ checkpointer: Checkpointer; journal: Journal; created: boolean }> {
  const found = await readStoreFiles(paths, initial, fs);
  const { stored, file, entries } = found;
  const memory = inputs.memory();
  const checkpointer = new Checkpointer(paths, found.document, fs, inputs);
  try {
    // Collections in the snapshot's order, archived ones included, whatever order the archive names them in.
    for (const name of Object.keys(file.collections)) memory.table(name);
    if (file.archive) {
      const { generation, archive } = await openNamedArchive(paths, file.archive, fs);
      checkpointer.generation = generation;
      checkpointer.archive = archive;
      archive?.scan((collection, id, pointer, group) => memory.setSlot(collection, id, pointer, group));
    }
    // Checked: now the files are tidied (nothing was changed before).
    checkpointer.journalGeneration = await settleStoreFiles(paths, found, checkpointer.archive, fs);
  } catch (error) {
    // A refused archive was opened to be checked.
    await checkpointer.archive?.close();
    throw error;
  }
  runWhole(memory.fillSteps(file.collections, file.meta, file.seq));
  for (const entry of entries) {
    memory.seq = entry.s;
    for (const [c, id, row] of entry.o) memory.applyOp(c, id, row ? Object.freeze(row) : null);
    for (const [k, v] of entry.m ?? []) memory.meta.set(k, v);
  }
  const acknowledged = await AcknowledgedSeq.open(paths.acknowledged, fs);
  const journal = await Journal.open(paths.journal, entries.length, { durable: (count) => inputs.undo.durable(count), refused: (count) => inputs.undo.rollBack(inputs.memory(), count) }, fs, acknowledged);
  // What the size trigger of checkpoints compares (CheckpointSchedule).
  checkpointer.journalBytes = (await stat(paths.journal)).size;
  if (stored !== null) checkpointer.snapshotBytes = (await stat(paths.snapshot)).size;
  return { checkpointer, journal, created: stored === null };
}
