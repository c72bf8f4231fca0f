/**
 * Simulated chains, their scripts, monitors and notifications (spec 4.10-4.13).
 * The folder's public face: only what code outside it imports (the domain's
 * other files take the stored shapes, records.ts, as types).
 */
export type { ChainDeps } from './chain-deps.ts';
// scheduleChainScript and ChainScript: the fast-forward bench schedules its script without a file.
export { runChainScriptEntry, scheduleChainScript, type ChainScript } from './chain-scripts.ts';
// mineBlocks: the soak bench mines a block holding a transfer in a transaction of its own.
export { hashOf, headOf, isCanonical, mineBlocks, type LogInput } from './chains.ts';
// wakeMonitors: the soak bench wakes the monitors in that transaction.
export { tickInTx, wakeMonitors } from './monitor-engine.ts';
export { MonitorIndex } from './monitor-index.ts';
export { RULE_EVENTS } from './monitor-rules.ts';
export { createMonitors, type MonitorsService } from './monitors-service.ts';
// createMonitor: the benches make their monitors without HTTP.
export { createMonitor, type CreateMonitorBody } from './monitors.ts';
export { notify } from './notifications.ts';
export { createChains, type ChainsDependencies, type ChainsService } from './service.ts';
