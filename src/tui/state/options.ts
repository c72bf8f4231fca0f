import type { Client } from '../../client/index.ts';
import type { ConsoleMemory } from '../console-memory.ts';
import type { EvidenceSaver } from '../evidence.ts';
import type { ScenarioStepper } from '../scenario-stepper.ts';
import type { WebhookInbox } from '../webhook-inbox.ts';
import type { DriftCheck } from './drift.ts';
import type { ConsoleKeyChoice, ConsoleService, Environment } from './types.ts';

/** What the process that wires the console (src/cli/tui.ts, or a test) hands to createConsoleStore. */
export interface ConsoleStoreOptions {
  client: Client;
  controlAvailable: boolean;
  /** The account whose balances the home screen shows (control API only). */
  accountId?: string | null;
  /** Rows per catalog page: 10 keeps a page, its header and the hints inside 24 lines. */
  catalogPageSize?: number;
  /** The local webhook receiver (started by the CLI when control is available). */
  inbox?: WebhookInbox | null;
  /** Opens a scenario file on a fresh simulator for stepping (wired by the CLI). */
  openScenario?: ((file: string) => Promise<ScenarioStepper>) | null;
  /** The keys to switch between, the first in use (its client and account replace `client` and `accountId`). */
  keys?: ConsoleKeyChoice[];
  environment?: Environment | null;
  service?: ConsoleService | null;
  /** What to keep between sessions (wired by the CLI: a file beside the store). */
  memory?: ConsoleMemory | null;
  /** Writes one run's evidence files; returns where (wired by the CLI). */
  saveEvidence?: EvidenceSaver | null;
  /** The scenario files the picker offers besides recent ones (wired by the CLI: fixtures/scenarios). */
  listScenarioFiles?: (() => Promise<string[]>) | null;
  /** Presenter mode (`--play FILE --pace S`): played from the start. */
  play?: { file: string; paceMs: number } | null;
  /** Schedules presenter mode's next step; tests pass one they drive by hand. Returns a cancel. */
  pacer?: Pacer;
  /** Makes idempotency keys; tests may pass a counter. */
  newIdempotencyKey?: () => string;
  /**
   * On a realtime clock, how much simulated time passes between rereads of the
   * screen in view (default 10 s): several screens read with the key, whose
   * budget is 60 requests a minute by default (spec 8).
   */
  realtimeRereadMs?: number;
  /** The drift check the key screen offers in --url mode (wired by the CLI). */
  driftCheck?: DriftCheck | null;
}

/** Calls `step` after `ms`; the returned function cancels it. */
export type Pacer = (ms: number, step: () => void) => () => void;
