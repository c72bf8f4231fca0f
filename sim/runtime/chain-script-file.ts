import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Where chain scripts are: fixtures/chains/NAME.json. */
export const CHAIN_SCRIPT_DIR = fileURLToPath(new URL('../../fixtures/chains/', import.meta.url));

/** The text of fixtures/chains/NAME.json, or null when it cannot be read; what it says is the domain's to check (sim/domain/chains/chain-scripts.ts). */
export async function readChainScriptText(name: string): Promise<string | null> {
  try {
    return await readFile(join(CHAIN_SCRIPT_DIR, `${name}.json`), 'utf8');
  } catch {
    return null;
  }
}
