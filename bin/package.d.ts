/** dist/package: where the package's build lives. */
export const PACKAGE_DIR: string;
/** dist/package for the current sources, with type declarations, built first when missing or stale. */
export function ensurePackageBuilt(): Promise<string>;
