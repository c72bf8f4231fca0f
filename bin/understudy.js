#!/usr/bin/env node
// The installed entry point. From an npm package (which ships dist/package,
// not the sources): the CLI as `npm pack` built it. From a clone: the CLI as
// built by bin/build.js (rebuilt first when a source file changed since the
// last build; bin/build.js says what that saves); when it cannot be built (a
// read-only checkout, say), the sources run through tsx's loader instead: slower
// to start, the same program. Both esbuild and tsx are devDependencies: only a
// clone reaches this branch, and `npm ci` installs them there.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
const packaged = new URL('../dist/package/cli.js', import.meta.url);

if (!existsSync(sources) && existsSync(packaged)) await import(packaged.href);
else {
  const { ensureBuilt } = await import('./build.js');
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
}
