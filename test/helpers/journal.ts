/**
 * The entry lines of a journal's text: its first line is the header naming the
 * snapshot it follows (sim/store/journal.ts), so a journal with nothing after its
 * snapshot (after a clean stop) holds that line alone.
 */
export const journalEntries = (text: string | Buffer): string[] => text.toString().split('\n').slice(1).filter((line) => line !== '');
