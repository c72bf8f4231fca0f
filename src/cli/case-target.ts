import type { FlagSpec } from './args.ts';

/** Where `case export` and `explain` read a run: the simulator `serve` starts by default, or any service. */
export const DEFAULT_URL = 'http://127.0.0.1:4010';

export const TARGET_FLAGS: FlagSpec[] = [
  { name: 'url', value: 'U', help: `the simulator or service (default $UNDERSTUDY_URL, else ${DEFAULT_URL})` },
  { name: 'key', value: 'K', help: "a key that reads the run (default $UNDERSTUDY_KEY; on the simulator, without one, a read-only key is made and revoked)" },
  { name: 'control-token', value: 'T', help: "the simulator's --control-token, when it has one" },
];

export function targetOf(flags: Record<string, string | boolean>, env: NodeJS.ProcessEnv = process.env) {
  const text = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
  return {
    url: (text('url') ?? env.UNDERSTUDY_URL ?? DEFAULT_URL).replace(/\/+$/, ''),
    key: text('key') ?? env.UNDERSTUDY_KEY,
    controlToken: text('control-token') ?? env.UNDERSTUDY_CONTROL_TOKEN,
  };
}
