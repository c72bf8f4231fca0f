/** Bundles TypeScript entry points into `outdir` the way the CLI is built. */
export function bundle(entries: string[] | Record<string, string>, outdir: string, options?: { sourcemap?: 'linked' | false }): Promise<void>;
/** Every source file's path and modification time, one a line: a build is current while this is unchanged. */
export function sourcesState(): string;
/** The built CLI entry for the current sources, building it first when needed. */
export function ensureBuilt(): Promise<string>;
