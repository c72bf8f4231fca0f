import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory } from './durable-json-file.ts';
import { StoreFileError } from './store-file-error.ts';

/**
 * `PATH.secrets`: the store's sealing key, kept beside the store and out of it
 * (docs/decisions.md, Threat model). The store files (`PATH`, its journal and
 * archive) and `GET /sim/snapshot` can be shared; this file must not be.
 */
export const secretsPathOf = (storePath: string) => `${storePath}.secrets`;

interface SecretsFile {
  format: 'understudy-secrets';
  version: 1;
  warning: string;
  sealingKey: string;
}

const WARNING = 'Do not share this file: it signs this store\'s webhooks and seals its key secrets. The store files and snapshots can be shared without it.';

/** The sealing key in `path`, or null when there is no such file; a file that is not one is refused, naming it. */
export async function readSealingKey(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, (error as Error).message);
  }
  let file: Partial<SecretsFile>;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(path, `it is not valid JSON (${(error as Error).message})`);
  }
  if (file?.format !== 'understudy-secrets' || file.version !== 1 || typeof file.sealingKey !== 'string' || file.sealingKey.length === 0) {
    throw new StoreFileError(path, 'it is not an understudy secrets file (format "understudy-secrets", version 1, a sealingKey)');
  }
  return file.sealingKey;
}

/**
 * Writes `path` whole or not at all, as the snapshot is written (durable-json-file.ts),
 * but created readable by its owner only: the key is never in a file others can read,
 * not even for the moment before a chmod.
 */
export async function writeSealingKey(path: string, sealingKey: string): Promise<void> {
  const file: SecretsFile = { format: 'understudy-secrets', version: 1, warning: WARNING, sealingKey };
  const temporary = join(dirname(path), `.${basename(path)}.tmp`);
  await rm(temporary, { force: true });
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDirectory(dirname(path));
}
