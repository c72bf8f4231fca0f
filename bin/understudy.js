#!/usr/bin/env node
// The installed entry point: the CLI as built by bin/build.js (rebuilt first
// when a source file changed since the last build).
import { ensureBuilt } from './build.js';

await import(await ensureBuilt());
