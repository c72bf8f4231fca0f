/** dist/package: where the package's build lives. */
export const PACKAGE_DIR: string;
/** dist/package for the current sources, built first when missing or stale (types only when asked for: they take tsc's time). */
export function ensurePackageBuilt(options?: { types?: boolean }): Promise<string>;
