import { randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { notAFile, type FileIdentity } from './customer-file.ts';
import { CaseInputError } from './input-error.ts';

/**
 * Writes what support records as evidence (`case import --out`, `case export
 * --out`) without surprise: every target is checked before the first byte is
 * written, so a refusal writes nothing; a file is created exclusively and
 * never through a link (O_CREAT|O_EXCL|O_NOFOLLOW: a dangling link counts as
 * taken); an existing file is replaced only with --force, and then by
 * renaming a new file over it, so a link is still never followed; a document
 * that was read is never written over, --force or not.
 */
export interface NewFileOptions {
  /** The flag that named the target, for the refusal ("--out"). */
  flag: string;
  /** Replace an existing regular file. */
  force?: boolean;
  /** Files read as input (the customer's documents): never written over. */
  inputs?: FileIdentity[];
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

async function lstatOrNull(path: string, flag: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CaseInputError(path, flag, `cannot be checked: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Why a target may not be written, or null when it may. */
function refusal(info: Stats | null, options: NewFileOptions): string | null {
  if (!info) return null;
  const kind = notAFile(info);
  if (kind) return `is ${kind}: output is never written through a link or over anything but a regular file`;
  if (options.inputs?.some((input) => input.dev === info.dev && input.ino === info.ino)) return 'is one of the documents read: an input is never written over, even with --force';
  if (!options.force) return 'exists: evidence is never replaced without --force (choose another path, or give --force)';
  return null;
}

/** Checks a directory for a bundle: absent (it is made), or a real directory, never a link to one. */
async function checkDirectory(dir: string, flag: string): Promise<boolean> {
  const info = await lstatOrNull(dir, flag);
  if (!info) return false;
  if (info.isSymbolicLink()) throw new CaseInputError(dir, flag, 'is a symbolic link: a bundle is written only into a real directory');
  if (!info.isDirectory()) throw new CaseInputError(dir, flag, `is ${notAFile(info) ?? 'a file'}, not a directory`);
  return true;
}

/** Creates `path` (never an existing name, never through a link) holding `text` on disk; a file it could not finish (a full disk) is removed. */
async function writeExclusive(path: string, text: string): Promise<void> {
  const handle = await open(path, CREATE, 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/**
 * Checks targets without writing: a refusal names the first that may not be
 * written. Returns whether `dir` exists and the targets that exist (those
 * --force replaces).
 */
export async function checkNewFiles(paths: string[], options: NewFileOptions, dir?: string): Promise<{ dirExists: boolean; existing: Map<string, Stats> }> {
  const dirExists = dir === undefined || (await checkDirectory(dir, options.flag));
  const existing = new Map<string, Stats>();
  if (!dirExists) return { dirExists, existing };
  for (const path of paths) {
    const info = await lstatOrNull(path, options.flag);
    const why = refusal(info, options);
    if (why) throw new CaseInputError(path, options.flag, why);
    if (info) existing.set(path, info);
  }
  return { dirExists, existing };
}

/** Checks every target before writing any; a failure part way removes the files this call created (one --force already replaced stays replaced). */
export async function writeNewFiles(files: Array<[string, string]>, options: NewFileOptions, dir?: string): Promise<void> {
  const { dirExists, existing } = await checkNewFiles(files.map(([path]) => path), options, dir);
  if (dir !== undefined && !dirExists) await mkdir(dir, { recursive: true });
  const created: string[] = [];
  try {
    for (const [path, text] of files) {
      if (!existing.has(path)) {
        await writeExclusive(path, text).catch((error: NodeJS.ErrnoException) => {
          // Something took the name after the check (a file, a link): refused like the check would have.
          if (error.code === 'EEXIST' || error.code === 'ELOOP') throw new CaseInputError(path, options.flag, 'appeared while the files were written: nothing is written over it');
          throw error;
        });
        created.push(path);
        continue;
      }
      // --force: a new file beside the target, renamed over it (rename replaces the name; it never follows a link).
      const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
      await writeExclusive(temporary, text);
      const now = await lstatOrNull(path, options.flag);
      const why = refusal(now, options);
      if (why || now?.ino !== existing.get(path)!.ino) {
        await unlink(temporary);
        throw new CaseInputError(path, options.flag, why ?? 'changed while the files were written: nothing is written over it');
      }
      await rename(temporary, path);
    }
  } catch (error) {
    for (const path of created) await unlink(path).catch(() => undefined);
    throw error;
  }
}
