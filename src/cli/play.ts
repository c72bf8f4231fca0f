import { UsageError, type FlagSpec } from './args.ts';

/** Presenter mode's flags: `npm start -- --play FILE [--pace SECONDS]`. */
export const PLAY_FLAGS: FlagSpec[] = [
  { name: 'play', value: 'FILE', help: 'presenter mode: play this scenario file step by step, a caption per step (space pauses)' },
  { name: 'pace', value: 'SECONDS', help: 'with --play: seconds between steps (default 4; 0.5 to 600)' },
];

export const DEFAULT_PACE_SECONDS = 4;

/** What --play and --pace ask for, checked; null without --play. */
export function playOptions(flags: Record<string, string | boolean>): { file: string; paceMs: number } | null {
  if (flags.pace !== undefined && typeof flags.play !== 'string') throw new UsageError('--pace goes with --play FILE (the scenario to present).');
  if (typeof flags.play !== 'string') return null;
  if (flags.play.trim() === '') throw new UsageError('--play needs a scenario file, e.g. --play fixtures/scenarios/01-complete-report-charged.json.');
  if (typeof flags.url === 'string') throw new UsageError('--play runs the scenario on a simulator of its own, embedded: it cannot be combined with --url.');
  const pace = flags.pace === undefined ? String(DEFAULT_PACE_SECONDS) : String(flags.pace);
  const seconds = /^[0-9]+(\.[0-9]+)?$/.test(pace) ? Number(pace) : Number.NaN;
  if (!(seconds >= 0.5 && seconds <= 600)) throw new UsageError(`--pace must be a number of seconds from 0.5 to 600, such as 3 or 1.5 (got '${pace}').`);
  return { file: flags.play, paceMs: Math.round(seconds * 1000) };
}
