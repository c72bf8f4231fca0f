import { readFile } from 'node:fs/promises';
import { isBuiltIn, parseProfile, ProfileError, type ChaosProfile } from '../../sim/drill/profiles.ts';
import { UsageError, type FlagSpec } from './args.ts';

/** `--chaos calm|flaky|storm|FILE` (contract: serve --chaos), shared by serve and rehearse. */
export const CHAOS_FLAG: FlagSpec = { name: 'chaos', value: 'calm|flaky|storm|FILE', help: 'seeded network chaos on /v1: a built-in profile or a JSON profile file (docs/drill.md)' };

/** The profile a --chaos value names; a usage error naming the flag (and the field) when it names none. */
export async function loadChaos(value: string): Promise<ChaosProfile> {
  if (isBuiltIn(value)) return parseProfile(value);
  let text: string;
  try {
    text = await readFile(value, 'utf8');
  } catch (error) {
    throw new UsageError(`--chaos must be calm, flaky, storm or a profile file; '${value}' cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--chaos ${value}: not JSON (${(error as Error).message}).`);
  }
  try {
    return parseProfile(document, value);
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(`--chaos ${error.message}`);
    throw error;
  }
}
