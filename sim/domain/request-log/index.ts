/**
 * The request log (spec 5: route, method, time and status of each authenticated
 * request) and the key usage read from it, in memory and saved with the snapshot.
 * The folder's public face: only what code outside it imports.
 */
export { Telemetry, type TelemetryState } from './telemetry.ts';
