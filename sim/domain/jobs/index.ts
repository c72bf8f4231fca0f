/** Scheduled jobs: the scheduler and its due-time heap (what performs each kind is wired in sim/domain/job-handlers.ts). The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './job-heap.ts';
export * from './records.ts';
export * from './scheduler.ts';
