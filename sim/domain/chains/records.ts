/** Records of chain logs, monitors, their windows, events and notifications, and chain script entries. Stored, one interface per collection. */

/** A log on a simulated chain (id `${chain}:${block (20 digits)}:${logIndex (6 digits)}`). */
export interface ChainLog {
  id: string;
  chain: string;
  blockNumber: string;
  logIndex: number;
  transactionHash: string;
  address: string;
  event: string;
  args: Record<string, string>;
  /** The reorg generation of its block when it was mined; a reorg removes it. */
  generation: number;
  removed: boolean;
}

export type MonitorStatus = 'active' | 'paused' | 'stopped' | 'expired' | 'exhausted';

export interface MonitorRule {
  id: string;
  type: 'erc20-transfer' | 'erc20-approval' | 'authority-change' | 'wallet-token-flow' | 'pool-activity' | 'governance-change' | 'control-change';
  [field: string]: unknown;
}

export interface MonitorTrigger {
  id: string;
  onRule: string;
  action: 'token-authority-check' | 'sender-approvals-check';
  lookbackBlocks: number;
  maximumRuns: number;
}

export interface MonitorRecord {
  id: string;
  accountId: string;
  keyId: string | null;
  name: string;
  chain: string;
  versionId: string | null;
  listingId: string | null;
  rules: MonitorRule[];
  triggers: MonitorTrigger[];
  windowBlocks: number;
  maximumLogs: number;
  durationSeconds: number;
  tickBudget: number;
  ticksUsed: number;
  rpcBudget: number;
  rpcUsed: number;
  startBlock: string;
  /** The first block not yet scanned. */
  cursorBlock: string;
  status: MonitorStatus;
  statusReason: string | null;
  endsAt: string;
  createdAt: string;
  updatedAt: string;
  webhookUrl: string | null;
  paymentProfile: 'none' | 'sim' | 'local_custody';
  spendCapAtomic: string | null;
  consentHash: string | null;
  idempotencyKey: string;
  bodyHash: string;
  windowCount: number;
  eventCount: number;
  missedCount: number;
  triggerRuns: Record<string, number>;
}

/** One scanned window, or a run of consecutive empty ones (id `${monitorId}:${seq}`). */
export interface MonitorWindow {
  id: string;
  monitorId: string;
  seq: number;
  fromBlock: string;
  toBlock: string;
  windows: number;
  logsMatched: number;
  logsDropped: number;
  rpcUsed: number;
  scannedAt: string;
}

export interface MonitorEventRecord {
  id: string;
  monitorId: string;
  accountId: string;
  seq: number;
  ruleId: string;
  kind: 'match' | 'trigger';
  chain: string;
  logId: string | null;
  blockNumber: string;
  blockHash: string;
  transactionHash: string | null;
  logIndex: number | null;
  event: Record<string, unknown>;
  explanation: string;
  fields: Record<string, string>;
  status: 'active' | 'retracted';
  observedAt: string;
  retractedAt: string | null;
}

export interface NotificationRecord {
  id: string;
  accountId: string;
  monitorId: string;
  seq: number;
  kind: 'monitor.event' | 'monitor.event.retracted' | 'monitor.delivery.failed' | 'monitor.status';
  title: string;
  body: string;
  event: Record<string, unknown> | null;
  createdAt: string;
  acknowledgedAt: string | null;
}

/** One scheduled step of a loaded chain script (fixtures/chains/NAME.json). */
export interface ChainScriptEntry {
  id: string;
  script: string;
  chain: string;
  logs: Array<{ address: string; event: string; args: Record<string, string>; transactionHash?: string }>;
  count: number;
  reorgDepth: number | null;
  /** When it is due, and the job sequence number drawn for it when the script was loaded (its place among jobs due at that instant). */
  dueAtMs: number;
  seq: number;
  /** The script's entry due after this one (due time, then order in the file), scheduled once this one has run; null for the last. */
  next: string | null;
}
