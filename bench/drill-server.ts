/**
 * Two simulators in one process, as `serve --clock frozen --limits off` starts one
 * (logger too): one with the drill and `--chaos calm`, one without the drill, each
 * with its own store and port. What the drill costs a purchase is measured between
 * the two (bench/drill-cost.ts): whatever makes one process dearer than another for
 * its whole life makes both of its simulators dearer.
 * Prints a ready line, then one line per simulator: `calm URL KEY` and `without URL KEY`.
 *   node bench/drill-server.js --store PATH [--first calm|without]
 */
import { openInProcess } from '../src/library/in-process.ts';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const storePath = flag('--store');
if (!storePath) throw new Error('--store PATH is required');
// The simulator opened first is the first to run the shared code: the bench alternates which.
const first = flag('--first') === 'without' ? 'without' : 'calm';

async function open(kind: 'calm' | 'without') {
  const drill = kind === 'calm';
  const built = await openInProcess({ storePath: `${storePath}.${kind}`, seed: '1', env: 'test', clock: 'frozen', limits: false, chaos: drill ? 'calm' : undefined, drill, logger: true });
  const { credentials } = built.seedDemo();
  const key = credentials.find((c) => c.profile === 'local_custody' && c.accountType === 'evm');
  if (!key) throw new Error('the demo data has no local_custody evm key');
  const address = await built.app.listen({ host: '127.0.0.1', port: 0 });
  return { kind, built, url: `http://127.0.0.1:${new URL(address).port}`, key: key.secret };
}

const simulators = [await open(first), await open(first === 'calm' ? 'without' : 'calm')];
process.stdout.write(`understudy listening on ${simulators.map((s) => s.url).join(' ')}\n${simulators.map((s) => `${s.kind} ${s.url} ${s.key}`).join('\n')}\n`);

const stop = async () => {
  for (const s of simulators) await s.built.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
