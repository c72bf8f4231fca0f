/** Bundles TypeScript entry points into `outdir` the way the CLI is built. */
export function bundle(entries: string[], outdir: string): Promise<void>;
/** The built CLI entry for the current sources, building it first when needed. */
export function ensureBuilt(): Promise<string>;
