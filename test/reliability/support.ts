import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { HANG_GUARD_MS, waitFor } from '../helpers/wait.ts';

/** Shared helpers of the reliability suite (not a test file). */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const LISTENING = /^understudy listening on http:\/\/127\.0\.0\.1:(\d+)$/;
/** A key secret's shape (no g flag, so .test() keeps no state). */
export const SECRET_PATTERN = /svc_(?:test|live)_[A-Za-z0-9_-]{43}/;

export const EVM_ADDRESS = `0x${'ab'.repeat(20)}`;
export const TOKEN_INPUT = { chain: 'ethereum', address: EVM_ADDRESS };
export const INSPECTION_INPUT = { analysisChain: 'solana', network: 'mainnet-beta', encoding: 'base64', payloadBase64: 'AQIDBA==' };
export const SOL_ASSET = 'solana:mainnet-beta/native';

const made: string[] = [];

export async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `understudy-reliability-${label}-`));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
}

export { waitFor };

export interface Served {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  base: string;
  /** The complete stdout lines printed up to readiness: the listening line and the credential block. */
  readyLines: string[];
  /** Length of stdout once the credential block was printed (everything after it is "later output"). */
  readyOffset: number;
}

const children: Served[] = [];

/** How serve is started: from the sources through tsx, or as `npm run serve` starts it (the built CLI). */
const ENTRIES = { source: ['--import', 'tsx', 'src/cli/main.ts'], built: ['bin/understudy.js'] };

/**
 * `node --import tsx src/cli/main.ts serve ARGS` (or `node bin/understudy.js serve ARGS`),
 * ready once the listening line and the credential block (a new store's demo
 * keys, or the existing-store line) have been printed.
 */
export async function serve(args: string[], entry: keyof typeof ENTRIES = 'source'): Promise<Served> {
  const child = spawn(process.execPath, [...ENTRIES[entry], 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const partial = { child, stdout: () => out, stderr: () => err, exited };
  children.push(partial as Served);
  const lines = await waitFor(
    () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`serve exited early (${child.exitCode ?? child.signalCode}): ${err}`);
      const complete = out.split('\n').slice(0, -1);
      if (complete.length < 2) return null;
      if (/^Existing store:/.test(complete[1])) return complete.slice(0, 2);
      // A new store: "Demo credentials ..." then one line per demo key (4 in the test environment).
      const keyLines = complete.slice(2).filter((l) => /^\s+\S+\s+account .* key svc_/.test(l));
      return /^Demo credentials/.test(complete[1]) && keyLines.length === 4 ? complete.slice(0, 6) : null;
    },
    'serve to print its ready line and credentials',
  );
  const match = LISTENING.exec(lines[0]);
  if (!match) throw new Error(`unexpected first stdout line ${JSON.stringify(lines[0])}`);
  const served = Object.assign(partial, { base: `http://127.0.0.1:${match[1]}`, readyLines: lines, readyOffset: lines.join('\n').length + 1 }) as Served;
  return served;
}

export function demoSecrets(served: Served): Array<{ profile: string; accountId: string; secret: string }> {
  return served.readyLines.flatMap((l) => {
    const m = /^\s+(\S+)\s+account (\S+) \(\w+\)\s+key (svc_(?:test|live)_[A-Za-z0-9_-]{43})$/.exec(l);
    return m ? [{ profile: m[1], accountId: m[2], secret: m[3] }] : [];
  });
}

export async function stop(served: Served, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  served.child.kill(signal);
  return Promise.race([served.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`serve did not exit on ${signal}`)), HANG_GUARD_MS))]);
}

/** Kills every child still running (afterEach/afterAll). */
export async function killChildren(): Promise<void> {
  for (const served of children.splice(0)) {
    if (served.child.exitCode === null && served.child.signalCode === null) {
      served.child.kill('SIGKILL');
      await served.exited;
    }
  }
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

/** One JSON request to a served simulator. */
export async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** Like `call`, but the status must be `expected`. */
export async function ok(base: string, method: string, path: string, expected: number, options: { key?: string; body?: unknown } = {}): Promise<any> {
  const answer = await call(base, method, path, options);
  if (answer.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer.body;
}

/** Every occurrence of each secret in `text`, as "secret…last4 in where". */
export function findSecrets(text: string, secrets: Iterable<string>, where: string): string[] {
  const found: string[] = [];
  for (const secret of secrets) if (secret && text.includes(secret)) found.push(`${secret.slice(0, 13)}…${secret.slice(-4)} in ${where}`);
  return found;
}

export function isErrorBody(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'error') return false;
  const error = (value as { error: unknown }).error;
  if (!error || typeof error !== 'object' || Array.isArray(error)) return false;
  const inner = Object.keys(error).sort();
  return inner.length === 2 && inner[0] === 'code' && inner[1] === 'message' && typeof (error as { code: unknown }).code === 'string' && typeof (error as { message: unknown }).message === 'string';
}
