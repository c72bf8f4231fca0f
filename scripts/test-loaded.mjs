// npm run test:loaded: the whole suite (npm test) beside CPU hogs that keep every
// core busy, as on a loaded machine (issue 29). The hogs are stopped afterwards
// whatever the outcome, and the exit status is the suite's. Prints how long it took.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const hogs = Array.from({ length: availableParallelism() }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopHogs();
    process.exit(130);
  });
}

const started = performance.now();
process.stderr.write(`test:loaded: ${hogs.length} CPU hogs running (pids ${hogs.map((h) => h.pid).join(', ')}); npm test…\n`);
const suite = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['test'], { stdio: 'inherit' });
suite.on('exit', (code, signal) => {
  stopHogs();
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  process.stderr.write(`test:loaded: npm test ${code === 0 ? 'passed' : `failed (${code ?? signal})`} in ${minutes} min beside ${hogs.length} CPU hogs.\n`);
  process.exit(code ?? 1);
});
