import { connect, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kill, start, type Running } from '../helpers/cli.ts';

/**
 * Issue 29 point 3: SIGTERM stops `serve` promptly. Idle keep-alive
 * connections are closed at once; a request in flight finishes and its
 * connection closes with its answer (Connection: close) instead of at the
 * 72-second keep-alive timeout; a request that still arrives on an old
 * connection gets 503 with the spec's error body; the process exits 0 and every
 * acknowledged write is there after a restart. Orderings decide, not durations.
 */

const running: Running[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await kill(r);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function serve(store: string): Running {
  const r = start(['serve', '--port', '0', '--clock', 'frozen', '--store', store]);
  running.push(r);
  return r;
}

/** A raw keep-alive connection: what is written goes as it is, answers are read one by one. */
class Connection {
  private buffered = '';
  private waiting: (() => void) | null = null;
  readonly closed: Promise<void>;
  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    void this.closed.then(() => this.waiting?.());
  }

  static async open(base: string): Promise<Connection> {
    const { hostname, port } = new URL(base);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new Connection(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The next whole answer (status, lower-case headers, body); rejects if the connection closes first. */
  async answer(): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffered.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (Buffer.byteLength(this.buffered.slice(end + 4)) >= length) {
          const body = this.buffered.slice(end + 4, end + 4 + length);
          this.buffered = this.buffered.slice(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.socket.destroyed) throw new Error(`the connection closed before a whole answer: ${JSON.stringify(this.buffered)}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

const request = (method: string, path: string, body?: string) =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n${body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`}\r\n${body ?? ''}`;

describe('SIGTERM stops serve promptly, losing nothing acknowledged', () => {
  it('closes idle connections at once, lets the request in flight finish with Connection: close, answers a late one 503, exits 0; a restart has every acknowledged write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-stop-'));
    dirs.push(dir);
    const store = join(dir, 's.json');
    const first = serve(store);
    const base = await first.ready();

    const created = await fetch(`${base}/sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'evm' }) });
    const accountId = ((await created.json()) as { account: { id: string } }).account.id;
    const deposit = JSON.stringify({ profile: 'local_custody', amountAtomic: '7' });
    const depositPath = `/sim/accounts/${accountId}/deposits`;
    for (let i = 0; i < 5; i += 1) expect((await fetch(`${base}${depositPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deposit })).status).toBe(201);

    // Three old keep-alive connections, each with one answered request behind it.
    const [idle, inFlight, late] = await Promise.all([Connection.open(base), Connection.open(base), Connection.open(base)]);
    for (const c of [idle, inFlight, late]) {
      c.write(request('GET', '/sim/clock'));
      expect((await c.answer()).status).toBe(200);
    }
    // In flight: a deposit whose body has not all arrived. Late: a request whose headers have not.
    const split = deposit.length - 5;
    inFlight.write(request('POST', depositPath, deposit).slice(0, -5));
    late.write('GET /sim/clock HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    // The server has read what was sent: a request on a fourth connection is answered after it.
    expect((await fetch(`${base}/sim/clock`)).status).toBe(200);

    first.child.kill('SIGTERM');
    // The idle connection is closed by the server at once: nothing else is sent until it is.
    await idle.closed;

    late.write('connection: keep-alive\r\n\r\n');
    const refused = await late.answer();
    expect(refused.status).toBe(503);
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toEqual({ error: { code: 'service_unavailable', message: 'The simulator is stopping. Send the request again once it has restarted.' } });
    await late.closed;

    inFlight.write(deposit.slice(split));
    const finished = await inFlight.answer();
    expect(finished.status, finished.body).toBe(201);
    expect(finished.headers.connection).toBe('close');
    await inFlight.closed;

    expect(await first.exited).toEqual({ code: 0, signal: null });

    // Restarted: all six acknowledged deposits are there.
    const second = serve(store);
    const again = await second.ready();
    const account = (await (await fetch(`${again}/sim/accounts/${accountId}`)).json()) as { balances: Array<{ profile: string; depositedAtomic: string }> };
    expect(account.balances.find((b) => b.profile === 'local_custody')!.depositedAtomic).toBe('42');
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });
});
