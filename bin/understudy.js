#!/usr/bin/env node
// The installed entry point: the CLI as built by bin/build.js (rebuilt first
// when a source file changed since the last build). When it cannot be built
// (a read-only install, say), the sources run through tsx's loader instead:
// slower to start, the same program.
import { ensureBuilt } from './build.js';

let entry;
try {
  entry = await ensureBuilt();
} catch (error) {
  process.stderr.write(`understudy: running from the sources (the build failed: ${error.message.split('\n')[0]})\n`);
}
if (entry) await import(entry);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
