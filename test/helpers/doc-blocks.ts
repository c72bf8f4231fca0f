import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';

/** A document's blocks of one fence, in order: ```sh by default (the ones meant to be run). */
export function shellBlocks(markdown: string, fence = 'sh'): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${fence}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]);
}

/** After a walk: whatever its blocks left running is stopped (bash leads its process group), and its scratch folder removed. */
export async function endWalk(walk: ChildProcess | null, scratch: string | null): Promise<void> {
  if (walk?.pid) {
    try {
      process.kill(-walk.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  if (scratch) await rm(scratch, { recursive: true, force: true });
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
