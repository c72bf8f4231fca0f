import { spawn } from 'node:child_process';
import type { DriftOutcome } from '../tui/state/drift.ts';

/** Where the console's drift check writes its JSON report. */
export const CONSOLE_DRIFT_REPORT = '.understudy/drift-report.json';

/**
 * The console's drift check: `understudy drift --yes --json FILE` in a child
 * process of this same program (the console's own process keeps its terminal),
 * its closing lines (score, differences) handed back for the key screen.
 */
export async function driftInChild(url: string, key: string): Promise<DriftOutcome> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir('.understudy', { recursive: true });
  const args = [...process.execArgv, process.argv[1], 'drift', '--url', url, '--yes', '--json', CONSOLE_DRIFT_REPORT];
  // The key goes by the environment, not the command line, where other users' process lists would show it.
  const child = spawn(process.execPath, args, { env: { ...process.env, UNDERSTUDY_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exitCode = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  const lines = out.split('\n').filter((l) => /^(Score|Differences stated|The check could not run)/.test(l));
  if (lines.length === 0) lines.push(...err.trim().split('\n').slice(-2));
  return { exitCode, summary: lines, reportFile: CONSOLE_DRIFT_REPORT };
}
