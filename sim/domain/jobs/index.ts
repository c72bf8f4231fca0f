/**
 * Scheduled jobs: the scheduler and its due-time heap (what performs each kind
 * is wired in sim/domain/job-handlers.ts). The folder's public face: only what
 * code outside it imports (the store port's collections take the stored shape,
 * records.ts, as a type).
 */
export type { Job } from './records.ts';
export { reserveJobSeqs, schedule, scheduleAs, Scheduler, unschedule, type Advanced, type SchedulerOptions } from './scheduler.ts';
