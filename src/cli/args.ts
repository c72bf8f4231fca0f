import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { npmKeptFlags } from './npm-kept.ts';

/** A small strict flag parser: unknown flags, bad values and stray arguments are errors naming what was wrong. */
export interface FlagSpec {
  name: string;
  value?: string; // placeholder, e.g. 'N'; absent for boolean flags
  help: string;
  default?: string;
  choices?: string[];
  /** The flag may be given more than once; its values are joined with commas. */
  repeatable?: boolean;
  /** Refuses a value the command could not use, with a UsageError naming the flag. */
  check?: (value: string) => void;
}

export interface ParseOptions {
  /** What the command's positional arguments are, e.g. 'FILE...' or 'URL'; without it there may be none. */
  positionals?: string;
  /** Where npm's npm_config_* variables are read (npm-kept.ts); the process's environment by default. */
  env?: Record<string, string | undefined>;
}

export class UsageError extends Error {}

export function parseFlags(argv: string[], specs: FlagSpec[], options: ParseOptions = {}): { flags: Record<string, string | boolean>; positionals: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const seen = new Set<string>();
  const kept = npmKeptFlags(argv, specs, options.env ?? process.env);
  if (kept) throw new UsageError(kept);
  for (const spec of specs) if (spec.default !== undefined) flags[spec.name] = spec.default;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      // A word the command does not read would otherwise be dropped without a trace (a flag missing its dashes, a value after a boolean flag).
      if (!options.positionals) throw new UsageError(`Unexpected argument '${arg}': this command takes only --flags. Run with --help for the list.`);
      positionals.push(arg);
      continue;
    }
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const spec = specs.find((s) => s.name === rawName);
    if (!spec) throw new UsageError(`Unknown flag --${rawName}. Run with --help for the list.`);
    if (!spec.value) {
      flags[spec.name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${spec.name} needs a value (${spec.value}).`);
    if (spec.choices && !spec.choices.includes(value)) throw new UsageError(`--${spec.name} must be one of ${spec.choices.join(', ')} (got '${value}').`);
    spec.check?.(value);
    const earlier = flags[spec.name];
    flags[spec.name] = spec.repeatable && typeof earlier === 'string' && seen.has(spec.name) ? `${earlier},${value}` : value;
    seen.add(spec.name);
  }
  return { flags, positionals };
}

export function helpText(usage: string, specs: FlagSpec[]): string {
  const lefts = specs.map((s) => `  --${s.name}${s.value ? ` ${s.value}` : ''}`);
  // One column for every help line, two spaces past the longest flag: a fixed width ran long flags into their help.
  const width = Math.max(28, ...lefts.map((left) => left.length + 2));
  const rows = specs.map((s, i) => {
    const def = s.default !== undefined ? ` [${s.default}]` : '';
    return `${lefts[i].padEnd(width)}${s.help}${def}`;
  });
  return `${usage}\n\nFlags:\n${rows.join('\n')}\n`;
}

export function portOf(value: string): number {
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535 (got '${value}').`);
  return port;
}

/**
 * The seed is keyed as text (sim/runtime/random.ts), so '01' and '1' would give
 * different worlds while reading as the same N: only a canonical whole number is taken.
 */
export function checkSeed(value: string): void {
  if (!/^(0|[1-9][0-9]{0,15})$/.test(value)) throw new UsageError(`--seed must be a whole number such as 1 or 42, without leading zeros (got '${value}').`);
}

/**
 * A store is a file plus siblings named after it (PATH.journal, PATH.rows.N,
 * PATH.lock), so PATH must name a file whose folder exists or can be created.
 */
export function checkStorePath(value: string): void {
  const usage = (problem: string) => new UsageError(`--store ${problem}; give a file path such as .understudy/store.json.`);
  if (value.trim() === '') throw usage(`is empty (got '${value}')`);
  if (/[\\/]$/.test(value) || kindOf(value) === 'directory') throw usage(`'${value}' names a folder, not a store file`);
  for (let folder = dirname(resolve(value)); ; folder = dirname(folder)) {
    const kind = kindOf(folder);
    if (kind === 'directory') return;
    if (kind === 'other') throw usage(`'${value}' cannot be created: ${folder} is a file, not a folder`);
    if (dirname(folder) === folder) return;
  }
}

function kindOf(path: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

export const SIMULATOR_FLAGS: FlagSpec[] = [
  { name: 'store', value: 'PATH', help: 'JSON file store (created with fixtures and demo data when missing)', default: '.understudy/store.json', check: checkStorePath },
  { name: 'seed', value: 'N', help: 'a whole number; seeds ids, secrets and every random choice of a new store', default: '1', check: checkSeed },
  { name: 'env', value: 'test|production', help: 'test: local rehearsal; production: production refusals', default: 'test', choices: ['test', 'production'] },
  { name: 'clock', value: 'realtime|frozen', help: 'realtime follows the wall clock plus advances; frozen moves only when advanced', default: 'realtime', choices: ['realtime', 'frozen'] },
];
