import type { AgentDetail, AgentFilterName, AgentFilters, AgentPage, AgentSort, ApiKey, Client, SimAccountView, SimClock } from '../../client/index.ts';

/** Screens are state: the console shows whatever `screen` names. */
export type Screen = 'home' | 'catalog' | 'filters' | 'agent';

/** What the console shows for a failed call: the spec's code and message (part 7). */
export interface DisplayError {
  code: string;
  message: string;
  status: number | null;
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

export interface ConsoleData {
  /** Whether the /sim control API may be used (embedded or local simulator); hidden against the real service. */
  controlAvailable: boolean;
  accountId: string | null;
  screen: Screen;
  isHelpOpen: boolean;
  error: DisplayError | null;
  /** null until read, or when there is no control API to read it from. */
  clock: SimClock | null;
  key: ApiKey | null;
  account: SimAccountView | null;
  catalog: CatalogState;
  filters: FiltersEditorState;
  agent: AgentState;
}

export interface ConsoleActions {
  start(): Promise<void>;
  go(screen: Screen): void;
  toggleHelp(): void;
  closeHelp(): void;
  refresh(): Promise<void>;
  refreshClock(): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  loadKey(): Promise<void>;
  loadAccount(): Promise<void>;

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

  openFilters(): void;
  moveFilterRow(delta: number): void;
  cycleFilterValue(delta: number): void;
  clearFilterDraft(): void;
  applyFilters(): Promise<void>;

  openSelectedAgent(): Promise<void>;
  scrollAgent(delta: number, maxScroll: number): void;
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
}

export type SetState = (partial: Partial<ConsoleData> | ((state: ConsoleState) => Partial<ConsoleData>)) => void;
export type GetState = () => ConsoleState;

export type { AgentFilterName };
