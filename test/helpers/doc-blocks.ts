import { spawn, type ChildProcess } from 'node:child_process';

/** A document's ```sh blocks, in order; other fences (```text, ```json) are not meant to be run. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/**
 * Runs blocks in order in one bash, as a reader pasting them into one terminal would
 * (variables carry over); each is announced on standard error so a failure names its
 * block, and `set -e` stops at the first command that fails. Awaits bash's exit.
 */
export async function runBlocks(blocks: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; label: string; started?: (child: ChildProcess) => void }) {
  const script = ['set -e', ...blocks.map((block, i) => `echo '--- ${options.label} sh block ${i + 1}' >&2\n${block}echo`)].join('\n');
  const child = spawn('bash', ['-c', script], { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  options.started?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr, transcript: `${stdout}\n--- stderr\n${stderr}` };
}
