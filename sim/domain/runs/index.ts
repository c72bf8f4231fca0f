/** Runs, settlement, reports and exports (spec 4.6-4.9), the platform queue and injected faults. The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './faults.ts';
export * from './platform-queue.ts';
export * from './platform-service.ts';
export * from './records.ts';
export * from './reports.ts';
export * from './run-events.ts';
export * from './run-input.ts';
export * from './run-money.ts';
export * from './run-plan.ts';
export * from './run-views.ts';
export * from './run-worker.ts';
export * from './service.ts';
export * from './settlement.ts';
