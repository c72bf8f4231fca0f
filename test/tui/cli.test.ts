import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onTerminal } from '../helpers/terminal.ts';
import { waitFor } from '../helpers/wait.ts';

/** `understudy tui` as a process: without a terminal it explains itself instead of crashing. */

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // stdin and stdout are pipes here, never a TTY.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('tui command', () => {
  it('refuses to start without a TTY, in one line and exit status 2', async () => {
    const result = await runCli(['tui', '--store', '/nonexistent-dir/never-created.json']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('understudy console needs an interactive terminal (TTY); use `npm run serve` for headless use');
    expect(result.stdout).toBe('');
  });

  it('is the default command', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs an interactive terminal');
  });

  it('prints its flags with --help', async () => {
    const result = await runCli(['tui', '--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--store', '--seed', '--env', '--clock', '--url', '--key']) expect(result.stdout).toContain(flag);
  });

  it('reports flag mistakes before the terminal check', async () => {
    expect((await runCli(['tui', '--url', 'http://127.0.0.1:4010'])).stderr).toContain('--url needs --key');
    const mixed = await runCli(['tui', '--url', 'http://127.0.0.1:4010', '--key', 'k', '--clock', 'frozen']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('(--clock) cannot be combined with --url');
    expect((await runCli(['tui', '--clock', 'sometimes'])).stderr).toContain('--clock must be one of realtime, frozen');
  });

  it('draws its screens on a terminal whose shell exports CI (ink would otherwise draw only at exit)', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'understudy-ci-term-'));
    const env = { ...process.env, CI: 'true', CONTINUOUS_INTEGRATION: '1' };
    const terminal = onTerminal(`node bin/understudy.js tui --store ${join(scratch, 'console.json')}`, { cwd: process.cwd(), cols: 100, rows: 30, env });
    try {
      await waitFor(() => terminal.drawn().includes('2Catalog 3Runs'), 'the console to draw its tab bar while running').catch((error: Error) => {
        throw new Error(`${error.message}; the terminal showed:\n${terminal.drawn().slice(-3000)}`);
      });
      expect(terminal.drawn()).toContain('understudy ·');
    } finally {
      terminal.end();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 360_000);
});
