/**
 * Writes docs/scenario.schema.json, the published JSON Schema of scenario
 * files, from `scenarioSchema` (src/scenario/schema.ts). Run after changing
 * the schema: `npx tsx scripts/write-scenario-schema.ts` (a test keeps the two equal).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarioSchema } from '../src/scenario/schema.ts';

const SCHEMA_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'scenario.schema.json');

const schemaText = (): string => `${JSON.stringify(scenarioSchema, null, 2)}\n`;

await mkdir(dirname(SCHEMA_FILE), { recursive: true });
await writeFile(SCHEMA_FILE, schemaText());
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
