const CHECKPOINT_AFTER_LINES = 50_000;
/** After a checkpoint that could not be written (a full disk), the next one starts this many journal lines later. */
const CHECKPOINT_RETRY_LINES = 1000;
const CHECKPOINT_AFTER_BYTES = 2 << 20;

/**
 * When a checkpoint starts by itself while serving: after `afterLines` journal
 * lines, or once the journal outgrows both `afterBytes` and the snapshot, so the
 * journal stays bounded however slowly lines come and a checkpoint never writes
 * more than the journal grew. One that failed is tried again a little later,
 * not at every write (a full disk would refuse one per write).
 */
export class CheckpointSchedule {
  private readonly afterLines: number;
  private readonly afterBytes: number;
  /** Journal lines at which the next checkpoint starts by itself. */
  private dueAtLine: number;
  /** After a failed checkpoint, the size trigger waits for the retry too. */
  private sizeTriggerFromLine = 0;

  constructor(options: { checkpointAfterLines?: number; checkpointAfterBytes?: number }) {
    this.afterLines = options.checkpointAfterLines ?? CHECKPOINT_AFTER_LINES;
    this.afterBytes = options.checkpointAfterBytes ?? CHECKPOINT_AFTER_BYTES;
    this.dueAtLine = this.afterLines;
  }

  /** Whether a journal of `lines` lines and `journalBytes` characters, beside a snapshot of `snapshotBytes`, calls for a checkpoint. */
  due(lines: number, journalBytes: number, snapshotBytes: number): boolean {
    return lines >= this.dueAtLine || (lines >= this.sizeTriggerFromLine && journalBytes >= Math.max(this.afterBytes, snapshotBytes));
  }

  /** A checkpoint completed with `lines` journal lines. */
  succeeded(lines: number): void {
    this.dueAtLine = lines + this.afterLines;
    this.sizeTriggerFromLine = 0;
  }

  failed(lines: number): void {
    this.dueAtLine = lines + Math.min(CHECKPOINT_RETRY_LINES, this.afterLines);
    this.sizeTriggerFromLine = this.dueAtLine;
  }
}
