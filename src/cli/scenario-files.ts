import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The scenario picker's list (the console cannot read files itself: src/tui
 * imports no node built-ins). Where the shipped scenarios live, relative to
 * the working directory, as `npm run scenario` reads them.
 */
export const SCENARIO_DIR = join('fixtures', 'scenarios');

/** The shipped scenario files, in their numbered order; none when the folder is not there. */
export async function listFixtureScenarios(dir = SCENARIO_DIR): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names.filter((name) => name.endsWith('.json')).sort().map((name) => join(dir, name));
  } catch {
    return [];
  }
}
