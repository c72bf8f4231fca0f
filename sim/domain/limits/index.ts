/**
 * The request and run limits of spec 8: their values, the rolling windows that
 * count requests, and the switch that turns them off (serve --no-limits).
 * The folder's public face: only what code outside it imports.
 */
export { LIMITS, RollingWindows } from './rate-limits.ts';
export { createLimits, type LimitsService } from './service.ts';
