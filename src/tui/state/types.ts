import type { ReportActions, ReportState } from './report.ts';
import type {
  AgentDetail,
  AgentFilterName,
  AgentFilters,
  AgentPage,
  AgentSort,
  ApiKey,
  Billing,
  Client,
  ExportResult,
  Monitor,
  MonitorDetail,
  Notification,
  Quote,
  Receipt,
  RunRead,
  SimAccountView,
  SimClock,
  SimFaults,
  SimLedgerEntry,
  SimRequestLogEntry,
} from '../../client/index.ts';
import type { ConsoleMemory } from '../console-memory.ts';
import type { EvidenceSaver } from '../evidence.ts';
import type { QuoteFormRow } from '../quote-form.ts';
import type { ScenarioStepper, StepView } from '../scenario-stepper.ts';
import type { InboxDelivery, WebhookInbox } from '../webhook-inbox.ts';

/** Where the service runs: test rehearses, production refuses what production refuses (spec 2.2, 4, 4.10). */
export type Environment = 'test' | 'production';

/** A key the console can use: the Key screen shows its secret so curl can use it beside the console. */
export interface ConsoleKeyChoice {
  /** 'demo local_custody', 'console', or what --key was. */
  name: string;
  profile: string;
  /** Its account, for the control API's reads (balances, ledger); null against a remote service. */
  accountId: string | null;
  secret: string;
  client: Client;
}

/** Where the console's requests go, shown on the Key screen so curl can follow along. */
export interface ConsoleService {
  url: string;
  /** The control token /sim requests carry; null when the control API needs none. */
  controlToken: string | null;
  /** The simulator runs inside the console (quitting stops it). */
  isEmbedded: boolean;
}

/** Screens are state: the console shows whatever `screen` names. */
export type Screen = 'home' | 'catalog' | 'filters' | 'agent' | 'quote' | 'run' | 'ledger' | 'monitors' | 'notifications' | 'inbox' | 'requests' | 'faults' | 'scenario' | 'report';

/** What the console shows for a failed call: the spec's code and message (part 7), and what it means. */
export interface DisplayError {
  code: string;
  message: string;
  status: number | null;
  /** The next thing to do, when the console knows (src/tui/refusals.ts). */
  meaning?: string | null;
}

export interface CatalogQueryState {
  q?: string;
  sort: AgentSort;
  filters: AgentFilters;
}

export interface CatalogState {
  query: CatalogQueryState;
  page: AgentPage | null;
  /** cursors[i] is the cursor that loads page i (undefined for the first page). */
  cursors: Array<string | undefined>;
  pageIndex: number;
  /** The limit sent with every page request. */
  pageSize: number;
  selected: number;
  isLoading: boolean;
  /** The search text being typed; null when not typing. */
  searchDraft: string | null;
}

export interface FiltersEditorState {
  draft: AgentFilters;
  row: number;
}

export interface AgentState {
  listingId: string | null;
  detail: AgentDetail | null;
  isLoading: boolean;
  scroll: number;
}

/** A one-line text field that owns the keyboard while open (quote form values, the scenario path). */
export interface PromptState {
  title: string;
  value: string;
  target: { kind: 'quote-field'; row: number } | { kind: 'scenario-file' };
}

/** A yes/no question about an action that cannot be undone; it owns the keyboard while open. */
export interface ConfirmState {
  kind: 'cancel-run';
  runId: string;
  question: string;
}

/** A call waiting out a Retry-After before its retry (src/client/retry.ts), shown with a countdown. */
export interface WaitingState {
  /** Distinct per wait, so the countdown restarts on the next one. */
  id: number;
  /** What is being retried, in words ('accepting the quote'). */
  what: string;
  /** The answer that is being waited out. */
  refusal: DisplayError;
  delayMs: number;
  retryIndex: number;
}

/** A refused create or accept, explained (spec 7). */
export interface Refusal extends DisplayError {
  action: 'quote' | 'accept';
}

export interface QuoteState {
  listingId: string | null;
  agent: AgentDetail | null;
  rows: QuoteFormRow[];
  row: number;
  /** form: editing inputs; quote: the quote's fields; confirm: accepting it. */
  mode: 'form' | 'quote' | 'confirm';
  quote: Quote | null;
  /** The idempotency key the confirmation will send (spec 4.4); kept for a retry of the same acceptance. */
  idempotencyKey: string | null;
  refusal: Refusal | null;
  isBusy: boolean;
  scroll: number;
}

export type RunView = 'status' | 'billing' | 'receipt' | 'export';

export interface RunListItem {
  id: string;
  status: string;
  createdAt?: string;
  listingId?: string;
  agentName?: string;
  /** The agent's limit, when the console knows it (it quoted the agent). */
  maximumRpcCalls?: number;
}

export interface RunState {
  /** Runs to pick from: the account's (control API) and those accepted in this console. */
  list: RunListItem[] | null;
  selected: number;
  /** Runs accepted in this console, newest first (all there is to list against a remote service). */
  accepted: RunListItem[];
  runId: string | null;
  read: RunRead | null;
  view: RunView;
  billing: Billing | null;
  receipt: Receipt | null;
  exported: (ExportResult & { bytes: number }) | null;
  /** The agent's execution limits (spec 2.5), for the reads bar. */
  agentName: string | null;
  maximumRpcCalls: number | null;
  /** Reads so far without a terminal status: drives the poll backoff (spec 4.6). */
  pollIndex: number;
  isLoading: boolean;
  /** The billing, receipt or export is being read. */
  isViewLoading: boolean;
  /** Lines scrolled; on the timeline, lines up from its newest event (it follows new events). */
  scroll: number;
}

export interface LedgerState {
  entries: SimLedgerEntry[] | null;
  scroll: number;
}

export interface MonitorsState {
  list: Monitor[] | null;
  selected: number;
  detail: MonitorDetail | null;
  isDetailOpen: boolean;
  scroll: number;
}

export interface NotificationsState {
  list: Notification[] | null;
  selected: number;
}

export interface InboxState {
  /** null when the console has no receiver (remote service, or none started). */
  url: string | null;
  deliveries: InboxDelivery[];
  destination: { id: string; state: string } | null;
  subscribedMonitorIds: string[];
  scroll: number;
}

export interface RequestsState {
  entries: SimRequestLogEntry[] | null;
  scroll: number;
}

export interface FaultsState {
  faults: SimFaults | null;
  row: number;
}

/** A scenario file to open: the shipped fixtures, and the files opened before (recent). */
export interface ScenarioChoice {
  file: string;
  isRecent: boolean;
}

export interface ScenarioState {
  /** The scenario picker (o), while open. */
  picker: { choices: ScenarioChoice[]; selected: number } | null;
  /** Files opened in this console, newest first. */
  recent: string[];
  /** Presenter mode (--play): steps run on their own every `paceMs` until paused. */
  presenter: { paceMs: number; isPaused: boolean } | null;
  file: string | null;
  name: string | null;
  description: string | null;
  total: number;
  next: number;
  provisioned: string[];
  steps: StepView[];
  /** The step shown in detail (an index into steps). */
  selected: number;
  isBusy: boolean;
  scroll: number;
}

export interface ConsoleData {
  /** Whether the /sim control API may be used (embedded or local simulator); hidden against the real service. */
  controlAvailable: boolean;
  accountId: string | null;
  /** null when the console cannot tell (a remote service with an unfamiliar key prefix). */
  environment: Environment | null;
  service: ConsoleService | null;
  /** The keys to switch between (k on the Key screen); `keyIndex` is the one in use. */
  keys: Array<Pick<ConsoleKeyChoice, 'name' | 'profile' | 'secret'>>;
  keyIndex: number;
  /** Where the console keeps what it remembers between sessions (its runs per key); null when it keeps nothing. */
  memoryWhere: string | null;
  screen: Screen;
  isHelpOpen: boolean;
  error: DisplayError | null;
  /** A short confirmation of the last action (stopped, acknowledged, subscribed...). */
  notice: string | null;
  /** null until read, or when there is no control API to read it from. */
  clock: SimClock | null;
  /** Wall time, for countdowns against a remote service (no simulated clock there). */
  wallNow: string;
  key: ApiKey | null;
  account: SimAccountView | null;
  prompt: PromptState | null;
  confirm: ConfirmState | null;
  waiting: WaitingState | null;
  catalog: CatalogState;
  filters: FiltersEditorState;
  agent: AgentState;
  quote: QuoteState;
  run: RunState;
  ledger: LedgerState;
  monitors: MonitorsState;
  notifications: NotificationsState;
  inbox: InboxState;
  requests: RequestsState;
  faults: FaultsState;
  scenario: ScenarioState;
  report: ReportState;
}

export interface ConsoleActions extends ReportActions {
  start(): Promise<void>;
  go(screen: Screen): void;
  toggleHelp(): void;
  closeHelp(): void;
  /** The notice describes the last action only: the next key clears it. */
  clearNotice(): void;
  refresh(): Promise<void>;
  refreshClock(): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  advanceToNextEvent(): Promise<void>;
  /** Reloads what the current screen shows that time may have changed. */
  refreshTimeDependent(): Promise<void>;
  loadKey(): Promise<void>;
  loadAccount(): Promise<void>;
  /** Uses the next of the console's keys: its account, runs and monitors replace the previous key's. */
  switchKey(): Promise<void>;

  loadCatalog(): Promise<void>;
  nextPage(): Promise<void>;
  previousPage(): Promise<void>;
  moveSelection(delta: number): void;
  cycleSort(): Promise<void>;
  clearQuery(): Promise<void>;
  startSearch(): void;
  typeSearch(text: string): void;
  eraseSearch(): void;
  cancelSearch(): void;
  submitSearch(): Promise<void>;
  openDemoAgent(): Promise<void>;

  openFilters(): void;
  moveFilterRow(delta: number): void;
  cycleFilterValue(delta: number): void;
  clearFilterDraft(): void;
  applyFilters(): Promise<void>;

  openSelectedAgent(): Promise<void>;
  scrollAgent(delta: number, maxScroll: number): void;

  typePrompt(text: string): void;
  erasePrompt(): void;
  cancelPrompt(): void;
  submitPrompt(): Promise<void>;

  quoteAgent(): Promise<void>;
  quoteSelectedAgent(): Promise<void>;
  openQuoteForm(): void;
  moveQuoteRow(delta: number): void;
  cycleQuoteChoice(delta: number): void;
  editQuoteRow(): void;
  clearQuoteRow(): void;
  requestQuote(): Promise<void>;
  startAccept(): void;
  cancelAccept(): void;
  confirmAccept(): Promise<void>;
  scrollQuote(delta: number, maxScroll: number): void;
  backFromQuote(): void;

  loadRuns(): Promise<void>;
  moveRunSelection(delta: number): void;
  openSelectedRun(): Promise<void>;
  openRun(runId: string): Promise<void>;
  loadRun(): Promise<void>;
  pollRun(): Promise<void>;
  showRunView(view: RunView): Promise<void>;
  /** Asks first (y/n): a cancel cannot be undone. */
  cancelRun(): void;
  answerConfirm(yes: boolean): Promise<void>;
  /** Gives up the Retry-After wait in progress: the call fails with the refusal that caused it. */
  stopWaiting(): void;
  /** On a frozen clock, where waiting changes nothing: advance to the next event, then retry at once. */
  advanceAndRetry(): Promise<void>;
  /** Resolves a pending billing's held reads (control API): confirmed, they are charged; not, they return. */
  reconcileRun(confirmed: boolean): Promise<void>;
  closeRun(): void;
  /** Saves the open run's receipt, export, billing, events and ledger lines to a folder (src/tui/evidence.ts). */
  saveEvidence(): Promise<void>;
  scrollRun(delta: number, maxScroll: number): void;

  loadLedger(): Promise<void>;
  scrollLedger(delta: number, maxScroll: number): void;

  loadMonitors(): Promise<void>;
  moveMonitorSelection(delta: number): void;
  openSelectedMonitor(): Promise<void>;
  closeMonitor(): void;
  stopMonitor(): Promise<void>;
  createDemoMonitor(): Promise<void>;
  mineMatchingLog(): Promise<void>;
  scrollMonitor(delta: number, maxScroll: number): void;

  loadNotifications(): Promise<void>;
  moveNotificationSelection(delta: number): void;
  ackNotification(): Promise<void>;

  refreshInbox(): void;
  connectInbox(): Promise<void>;
  scrollInbox(delta: number, maxScroll: number): void;

  loadRequests(): Promise<void>;
  scrollRequests(delta: number, maxScroll: number): void;

  loadFaults(): Promise<void>;
  moveFaultRow(delta: number): void;
  toggleFault(): Promise<void>;

  askScenarioFile(): void;
  openScenarioPicker(): Promise<void>;
  moveScenarioPick(delta: number): void;
  openPickedScenario(): Promise<void>;
  closeScenarioPicker(): void;
  /** Presenter mode: opens the file and steps it every `paceMs` (see ConsoleStoreOptions.pacer). */
  playScenario(file: string, paceMs: number): Promise<void>;
  togglePresenterPause(): void;
  openScenario(file: string): Promise<void>;
  stepScenario(): Promise<void>;
  runScenarioToEnd(): Promise<void>;
  moveScenarioStep(delta: number): void;
  closeScenario(): Promise<void>;
  scrollScenario(delta: number, maxScroll: number): void;
}

export interface ConsoleState extends ConsoleData {
  actions: ConsoleActions;
}

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
}

/** Calls `step` after `ms`; the returned function cancels it. */
export type Pacer = (ms: number, step: () => void) => () => void;

export type SetState = (partial: Partial<ConsoleData> | ((state: ConsoleState) => Partial<ConsoleData>)) => void;
export type GetState = () => ConsoleState;

export type { AgentFilterName };
