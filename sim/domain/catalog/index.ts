/** The catalog (spec 4.1-4.2): listings, versions, prices, the rails and assets they sell on. The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './assets.ts';
export * from './catalog-types.ts';
export * from './catalog.ts';
export * from './listings-admin.ts';
export * from './pricing.ts';
export * from './service.ts';
