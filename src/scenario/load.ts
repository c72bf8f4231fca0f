import { readFile } from 'node:fs/promises';
import { ScenarioFormatError, validateScenario } from './validate.ts';

/** Reads and checks a scenario file; format mistakes name the step index and field. */
export async function loadScenario(file: string) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ScenarioFormatError(file, '(file)', `cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioFormatError(file, '(file)', `is not valid JSON: ${(error as Error).message}`);
  }
  return validateScenario(value, file);
}
