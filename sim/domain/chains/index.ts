/** Simulated chains, their scripts, monitors and notifications (spec 4.10-4.13). The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './chain-deps.ts';
export * from './chain-scripts.ts';
export * from './chain-time.ts';
export * from './chains.ts';
export * from './monitor-engine.ts';
export * from './monitor-index.ts';
export * from './monitor-rules.ts';
export * from './monitors-service.ts';
export * from './monitors.ts';
export * from './notifications.ts';
export * from './records.ts';
export * from './service.ts';
