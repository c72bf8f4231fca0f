/** Scheduled jobs: the scheduler, its due-time heap, and what performs each kind. The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './job-handlers.ts';
export * from './job-heap.ts';
export * from './records.ts';
export * from './scheduler.ts';
