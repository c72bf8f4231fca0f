/**
 * Two edges of a process's life (issue 29):
 *
 * - Import: the 20,000-run store's snapshot (exported by `understudy serve`
 *   over GET /sim/snapshot) is PUT into a fresh simulator while this process
 *   reads GET /sim/clock again and again, each read sent once the last one is
 *   answered. The slowest read is how long the import held other requests up
 *   (target 200 ms); the import's own duration and the server's peak resident
 *   set are for information.
 * - Stop: 50 keep-alive clients send deposits (durable writes) as fast as they
 *   are answered; SIGTERM, and the time until the process has exited (target 6 s:
 *   requests in flight get at most 5 s).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import autocannon from 'autocannon';
import { expectStatus, log, removeDir, request, row, serveSimulator, sleep, tempDir, type Row } from './helpers.ts';
import type { PopulatedStore } from './populate.ts';

const MiB = 1024 * 1024;
const CLOCK_READ_TARGET_MS = 200;
const STOP_TARGET_MS = 6_000;
const STOP_CLIENTS = 50;

async function peakResidentMiB(pid: number): Promise<number> {
  const kb = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

/** PUT FILE to URL/sim/snapshot with its length declared; the answer's status and body. */
function putFile(url: string, file: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = httpRequest({ host: hostname, port, method: 'PUT', path: '/sim/snapshot', headers: { 'content-type': 'application/json', 'content-length': String(bytes) } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (c: string) => (body += c));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

export async function measureImport(large: PopulatedStore): Promise<Row[]> {
  const dir = await tempDir('import');
  try {
    const file = join(dir, 'snapshot.json');
    const source = await serveSimulator(large.storePath);
    try {
      const response = await fetch(`${source.url}/sim/snapshot`);
      await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
    } finally {
      await source.stop('SIGTERM');
    }
    const bytes = (await stat(file)).size;
    log(`import: the ${large.runs}-run store's snapshot is ${(bytes / MiB).toFixed(0)} MiB`);

    const target = await serveSimulator(join(dir, 'fresh.json'));
    try {
      const reads: number[] = [];
      let importing = true;
      const started = performance.now();
      const imported = putFile(target.url, file, bytes).finally(() => (importing = false));
      while (importing) {
        const sent = performance.now();
        expectStatus(await request(`${target.url}/sim/clock`), 200, 'GET /sim/clock');
        reads.push(performance.now() - sent);
      }
      const answer = await imported;
      const importMs = performance.now() - started;
      if (answer.status !== 200) throw new Error(`PUT /sim/snapshot: ${answer.status} ${answer.body.slice(0, 500)}`);
      const peak = await peakResidentMiB(target.child.pid!);
      const slowest = Math.max(...reads);
      log(`import: ${(importMs / 1000).toFixed(1)} s, ${reads.length} clock reads meanwhile, slowest ${slowest.toFixed(0)} ms, server peak ${peak.toFixed(0)} MiB`);
      return [
        row({
          group: 'import',
          name: `slowest GET /sim/clock during the import of a ${large.runs}-run store (${(bytes / MiB).toFixed(0)} MiB)`,
          value: slowest,
          unit: 'ms',
          target: { text: `≤ ${CLOCK_READ_TARGET_MS} ms`, pass: slowest <= CLOCK_READ_TARGET_MS },
          note: `${reads.length} reads while it ran`,
        }),
        row({ group: 'import', name: `PUT /sim/snapshot of that store, to its answer`, value: importMs, unit: 'ms', note: `server peak resident set ${peak.toFixed(0)} MB` }),
      ];
    } finally {
      await target.stop('SIGTERM');
    }
  } finally {
    await removeDir(dir);
  }
}

export async function measureStop(): Promise<Row[]> {
  const dir = await tempDir('stop');
  try {
    const server = await serveSimulator(join(dir, 'store.json'));
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    const created = await request(`${server.url}/sim/accounts`, { method: 'POST', body: { type: 'evm' } });
    expectStatus(created, 201, 'POST /sim/accounts');
    const body = JSON.stringify({ profile: 'local_custody', amountAtomic: '1' });
    const cannon = autocannon({
      url: `${server.url}/sim/accounts/${created.body.account.id}/deposits`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      connections: STOP_CLIENTS,
      duration: 60,
    });
    let answered = 0;
    cannon.on('response', () => (answered += 1));
    // Load well under way (every client has had answers) before the signal.
    while (answered < STOP_CLIENTS * 20) await sleep(50);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const code = await exited;
    const stopMs = performance.now() - signalled;
    cannon.stop();
    log(`stop: SIGTERM to exit ${stopMs.toFixed(0)} ms with ${STOP_CLIENTS} keep-alive clients (exit ${code}; ${answered} deposits answered)`);
    if (code !== 0) throw new Error(`serve exited ${code} after SIGTERM: ${server.stdout().slice(-500)}`);
    return [
      row({
        group: 'stop',
        name: `SIGTERM to exit, ${STOP_CLIENTS} keep-alive clients sending deposits`,
        value: stopMs,
        unit: 'ms',
        target: { text: `≤ ${STOP_TARGET_MS / 1000} s`, pass: stopMs <= STOP_TARGET_MS },
      }),
    ];
  } finally {
    await removeDir(dir);
  }
}
