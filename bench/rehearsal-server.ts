/**
 * understudy as `serve --clock frozen --limits off` starts it (its logger too), with or without
 * the rehearsal layer (chaos and conduct lines), for measuring what that layer
 * costs a keyed GET: both variants run from this one program, so they are the
 * same build. Prints serve's ready line and demo credentials.
 *   node bench/rehearsal-server.js --store PATH (--chaos calm | --no-rehearsal)
 */
import { describeCredentials } from '../src/cli/serve.ts';
import { openInProcess } from '../src/library/in-process.ts';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const storePath = flag('--store');
if (!storePath) throw new Error('--store PATH is required');
const rehearsal = !process.argv.includes('--no-rehearsal');

const built = await openInProcess({ storePath, seed: '1', env: 'test', clock: 'frozen', limits: false, chaos: flag('--chaos'), rehearsal, logger: true });
const { credentials } = built.seedDemo();
const address = await built.app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`understudy listening on http://127.0.0.1:${new URL(address).port}\n${describeCredentials(credentials)}\n`);

const stop = async () => {
  await built.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
