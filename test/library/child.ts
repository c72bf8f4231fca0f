import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface ChildResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end, as a user would from a shell: nothing of this
 * vitest worker (VITEST*, NODE_OPTIONS) nor of the `npm test` around it
 * (npm_*: its config and package) leaks into it.
 */
export async function runChild(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<ChildResult> {
  const inherited = Object.entries(process.env).filter(([name]) => !/^(VITEST|npm_)/i.test(name) && name !== 'NODE_OPTIONS' && name !== 'TEST');
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd: options.cwd,
      env: { ...Object.fromEntries(inherited), NO_COLOR: '1', ...options.env },
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as Partial<ChildResult> & { code?: number | string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
