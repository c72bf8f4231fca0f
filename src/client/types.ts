/**
 * The resources of the Buyer Service Interface (spec part 2) and of the
 * understudy control API (contract section 2), as TypeScript types: one face
 * for the two files that hold them.
 */
export type * from './v1-types.ts';
export type * from './sim-types.ts';
