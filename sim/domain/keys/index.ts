/** API keys, authentication, request limits and usage telemetry (spec 3, 5, 8). The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './credentials.ts';
export * from './keys.ts';
export * from './limits-service.ts';
export * from './rate-limits.ts';
export * from './records.ts';
export * from './service.ts';
export * from './telemetry.ts';
