/** What this check reads of a flag (args.ts FlagSpec; not imported, args.ts imports this). */
interface Flag {
  name: string;
  value?: string;
}

/** The package.json scripts that run this command line (`npm start`, `npm run serve`, ...). */
const OUR_SCRIPTS = new Set(['start', 'serve', 'scenario', 'rehearse']);

/**
 * `npm start --store X` (the `--` forgotten): npm takes flags before `--` as
 * its own config, hands them to the script only as npm_config_<name>
 * ("true" when the value came as a separate word, which npm then passes on as
 * a stray argument), and the command would never see them. Found by the
 * environment npm sets; the message shows the form with `--`. Null when nothing
 * was kept, or when not run by one of our scripts (npm_config_* are also how
 * npm passes a user's own .npmrc settings).
 */
export function npmKeptFlags(argv: string[], specs: Flag[], env: Record<string, string | undefined>): string | null {
  const script = env.npm_lifecycle_event;
  if (!script || !OUR_SCRIPTS.has(script)) return null;
  const given = new Set(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]));
  const kept = specs.filter((s) => s.name !== 'help' && !given.has(s.name) && env[`npm_config_${s.name.replace(/-/g, '_')}`] !== undefined);
  if (kept.length === 0) return null;
  const strays = argv.filter((a) => !a.startsWith('--'));
  const words = kept.map((s) => {
    const value = env[`npm_config_${s.name.replace(/-/g, '_')}`]!;
    if (!s.value) return `--${s.name}`;
    // With one flag kept and one stray word, the word is its value; otherwise the placeholder.
    const shown = value !== 'true' ? value : kept.length === 1 && strays.length === 1 ? strays[0] : s.value;
    return `--${s.name} ${shown}`;
  });
  const command = script === 'start' ? 'npm start' : `npm run ${script}`;
  const names = kept.map((s) => `--${s.name}`).join(', ');
  return `npm kept ${names} for itself: flags before \`--\` are npm's own, so understudy never saw ${kept.length === 1 ? 'it. Put it' : 'them. Put them'} after \`--\`:\n  ${command} -- ${words.join(' ')}`;
}
