/** A small strict flag parser: unknown flags and bad values are errors naming the flag. */
export interface FlagSpec {
  name: string;
  value?: string; // placeholder, e.g. 'N'; absent for boolean flags
  help: string;
  default?: string;
  choices?: string[];
  /** The flag may be given more than once; its values are joined with commas. */
  repeatable?: boolean;
}

export class UsageError extends Error {}

export function parseFlags(argv: string[], specs: FlagSpec[]): { flags: Record<string, string | boolean>; positionals: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const seen = new Set<string>();
  for (const spec of specs) if (spec.default !== undefined) flags[spec.name] = spec.default;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
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
    const earlier = flags[spec.name];
    flags[spec.name] = spec.repeatable && typeof earlier === 'string' && seen.has(spec.name) ? `${earlier},${value}` : value;
    seen.add(spec.name);
  }
  return { flags, positionals };
}

export function helpText(usage: string, specs: FlagSpec[]): string {
  const rows = specs.map((s) => {
    const left = `  --${s.name}${s.value ? ` ${s.value}` : ''}`;
    const def = s.default !== undefined ? ` [${s.default}]` : '';
    return `${left.padEnd(28)}${s.help}${def}`;
  });
  return `${usage}\n\nFlags:\n${rows.join('\n')}\n`;
}

export function portOf(value: string): number {
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535 (got '${value}').`);
  return port;
}

export const SIMULATOR_FLAGS: FlagSpec[] = [
  { name: 'store', value: 'PATH', help: 'JSON file store (created with fixtures and demo data when missing)', default: '.understudy/store.json' },
  { name: 'seed', value: 'N', help: 'seeds ids, secrets and every random choice of a new store', default: '1' },
  { name: 'env', value: 'test|production', help: 'test: local rehearsal; production: production refusals', default: 'test', choices: ['test', 'production'] },
  { name: 'clock', value: 'realtime|frozen', help: 'realtime follows the wall clock plus advances; frozen moves only when advanced', default: 'realtime', choices: ['realtime', 'frozen'] },
];
