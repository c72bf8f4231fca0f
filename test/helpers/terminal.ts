import { spawn } from 'node:child_process';

/**
 * A shell line run on a pseudo-terminal of its own (script(1)), as a person at
 * a terminal runs it: what it drew, without escape sequences, and a way to end
 * it (its whole process group).
 */
export function onTerminal(line: string, options: { cwd: string; cols: number; rows: number; env?: NodeJS.ProcessEnv }) {
  const child = spawn('script', ['-qfec', `stty cols ${options.cols} rows ${options.rows}; ${line}`, '/dev/null'], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return {
    drawn: () => output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''),
    end: () => {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    },
  };
}
