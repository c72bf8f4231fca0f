import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { errors } from '../domain/errors.ts';
import type { ChainScript } from '../domain/chain-scripts.ts';

/** Reads fixtures/chains/NAME.json. */
export const CHAIN_SCRIPT_DIR = fileURLToPath(new URL('../../fixtures/chains/', import.meta.url));

export async function readChainScript(name: string): Promise<ChainScript> {
  let text: string;
  try {
    text = await readFile(join(CHAIN_SCRIPT_DIR, `${name}.json`), 'utf8');
  } catch {
    throw errors.notFound(`No chain script named '${name}' in fixtures/chains/.`);
  }
  let script: ChainScript;
  try {
    script = JSON.parse(text);
  } catch (error) {
    throw errors.invalidInput(`fixtures/chains/${name}.json is not valid JSON (${(error as Error).message}).`);
  }
  if (!script || !Array.isArray(script.entries)) throw errors.invalidInput(`fixtures/chains/${name}.json has no "entries" array.`);
  return script;
}
