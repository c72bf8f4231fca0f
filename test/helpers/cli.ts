import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HANG_GUARD_MS } from './wait.ts';

/** The understudy command line as a user runs it, in its own process. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const MAIN = join(ROOT, 'src/cli/main.ts');

/**
 * A child is awaited by its own signals: its exit, or its ready line.
 * HANG_GUARD_MS is no verdict, only a guard against a hang (a child that
 * neither exits nor serves).
 */
export { HANG_GUARD_MS };

/** The line a server prints once it is listening (serve, webhook listen). */
const LISTENING = / listening on http:\/\/\S+/;

/**
 * The CLI run from `cwd` to its exit. A command that wrongly starts serving is
 * stopped once it prints its listening line, and reads as exit null (as does
 * one that hangs past HANG_GUARD_MS).
 */
export function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let served = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (!served && LISTENING.test(stdout)) {
        served = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code: served ? null : code, stderr, stdout });
    });
  });
}

/** A long-running CLI command (serve), awaited by its ready line and its exit. */
export interface Running {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves at the listening line with its base URL; rejects if the command exits first. */
  ready(): Promise<string>;
}

/** Starts `understudy ARGS` from `cwd`; the caller stops it (SIGTERM) or it is killed by `kill()` in afterEach. */
export function start(args: string[], cwd: string = ROOT, env: NodeJS.ProcessEnv = process.env): Running {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const guard = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
  void exited.then(() => clearTimeout(guard));
  const ready = () =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const match = /listening on (http:\/\/\S+)\n/.exec(out);
        if (!match) return false;
        child.stdout.off('data', look);
        resolve(match[1]);
        return true;
      };
      if (look()) return;
      child.stdout.on('data', look);
      void exited.then(({ code, signal }) => reject(new Error(`understudy ${args[0]} exited (${code ?? signal}) before its listening line: ${err.slice(-2000)}`)));
    });
  return { child, stdout: () => out, stderr: () => err, exited, ready };
}

/** Kills a started command that is still running (afterEach), and waits for it to be gone. */
export async function kill(running: Running): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
}
