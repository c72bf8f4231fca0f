import { Box, useInput, useStdin } from 'ink';
import { useEffect, useState, type ComponentType } from 'react';
import { ClockBar } from './components/clock-bar.tsx';
import { ErrorLine } from './components/error-line.tsx';
import { HelpOverlay } from './components/help-overlay.tsx';
import { KeyHints } from './components/key-hints.tsx';
import { PromptLine } from './components/prompt-line.tsx';
import { AgentScreen } from './screens/agent.tsx';
import { CatalogScreen } from './screens/catalog.tsx';
import { FaultsScreen } from './screens/faults.tsx';
import { FiltersScreen } from './screens/filters.tsx';
import { HomeScreen } from './screens/home.tsx';
import { InboxScreen } from './screens/inbox.tsx';
import { LedgerScreen } from './screens/ledger.tsx';
import { MonitorsScreen, NotificationsScreen } from './screens/monitors.tsx';
import { QuoteScreen } from './screens/quote.tsx';
import { RequestsScreen } from './screens/requests.tsx';
import { ReportScreen } from './screens/report.tsx';
import { RunScreen } from './screens/run.tsx';
import { ScenarioScreen } from './screens/scenario.tsx';
import { ConsoleProvider, useActions, useConsole, useKeyRouter } from './state/context.tsx';
import type { ConsoleStore } from './state/store.ts';
import type { Screen } from './state/types.ts';
import { activeScope } from './keys.ts';
import { createKeyRouter } from './keys/key-router.ts';
import { useCommands } from './use-commands.ts';

const SCREENS: Record<Screen, ComponentType> = {
  home: HomeScreen,
  catalog: CatalogScreen,
  filters: FiltersScreen,
  agent: AgentScreen,
  quote: QuoteScreen,
  run: RunScreen,
  ledger: LedgerScreen,
  monitors: MonitorsScreen,
  notifications: NotificationsScreen,
  inbox: InboxScreen,
  requests: RequestsScreen,
  faults: FaultsScreen,
  scenario: ScenarioScreen,
  report: ReportScreen,
};

export interface AppProps {
  store: ConsoleStore;
  /**
   * Whether keys are read. Defaults to whether stdin supports raw mode (a
   * TTY): Ink's useInput throws without it. Tests pass true.
   */
  isInteractive?: boolean;
  /** How often the clock bar re-reads simulated time. */
  clockRefreshMs?: number;
}

export function App({ store, isInteractive, clockRefreshMs = 1000 }: AppProps) {
  const { isRawModeSupported } = useStdin();
  const [router] = useState(() => createKeyRouter(store));
  const interactive = isInteractive ?? isRawModeSupported === true;
  // The one listener for keys (Ink's useInput needs raw mode: without a TTY enabling it would throw).
  useInput((input, key) => router.receive(input, key), { isActive: interactive });
  return (
    <ConsoleProvider store={store} isInteractive={interactive} router={router}>
      <Console clockRefreshMs={clockRefreshMs} />
    </ConsoleProvider>
  );
}

function Console({ clockRefreshMs }: { clockRefreshMs: number }) {
  const actions = useActions();
  const screen = useConsole((s) => s.screen);
  const isHelpOpen = useConsole((s) => s.isHelpOpen);
  const scope = useConsole(activeScope);
  const isLoading = useConsole((s) => s.loading > 0);
  const held = useConsole((s) => s.heldKeys.length);
  const router = useKeyRouter();
  useCommands('global');

  // Keys held during a load are applied once it has ended and the screen it opened has rendered (its listeners registered).
  useEffect(() => router.drain(), [router, screen, scope, isLoading, held]);

  // The console's timers (the clock reread, the run poll) live in the store: mounting starts them, unmounting stops them.
  useEffect(() => {
    void actions.shell.start({ clockRefreshMs });
    return () => actions.shell.stop();
  }, [actions, clockRefreshMs]);

  const ScreenView = SCREENS[screen];
  return (
    <Box flexDirection="column">
      <ClockBar />
      <Box flexDirection="column">{isHelpOpen ? <HelpOverlay /> : <ScreenView />}</Box>
      <PromptLine />
      <ErrorLine />
      <KeyHints />
    </Box>
  );
}
