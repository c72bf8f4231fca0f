import { isTerminal } from '../../client/index.ts';
import type { ConsoleState } from '../state/console-state.ts';
import type { RunView } from '../state/run.ts';
import { scrollCommands, selectCommands, type Command } from './command.ts';

const runCancellable = (state: ConsoleState) => state.run.read !== null && state.run.read.run.id === state.run.runId && !isTerminal(state.run.read.run.status);
const pendingBilling = (state: ConsoleState) => state.controlAvailable && state.run.view === 'billing' && state.run.billing?.status === 'pending';

const runView = (id: string, input: string, view: RunView, description: string): Command => ({
  id,
  scope: 'run',
  keys: [{ input }],
  label: input,
  description,
  run: ({ actions }) => void actions.run.showRunView(view),
});

/** The runs list and one run: its views, cancel, evidence, and reconciling held reads (spec 4.6–4.9). */
export const runCommands: Command[] = [
  // runs: the list, then one run
  ...selectCommands('runs', (actions, delta) => actions.run.moveRunSelection(delta)),
  { id: 'runs-open', scope: 'runs', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.run.openSelectedRun() },
  runView('run-status', 's', 'status', 'status'),
  runView('run-billing', 'b', 'billing', 'billing'),
  runView('run-receipt', 'i', 'receipt', 'receipt'),
  runView('run-export', 'e', 'export', 'export'),
  { id: 'run-evidence', scope: 'run', keys: [{ input: 'w' }], label: 'w', description: 'save evidence', run: ({ actions }) => void actions.run.saveEvidence() },
  { id: 'run-cancel', scope: 'run', keys: [{ input: 'x' }], label: 'x', description: 'cancel run', when: runCancellable, run: ({ actions }) => actions.run.cancelRun() },
  // Reads left unconfirmed (spec 3.3: billing pending) are resolved by the operator, here through /sim.
  { id: 'run-reads-confirmed', scope: 'run', keys: [{ input: 'c' }], label: 'c', description: 'reads confirmed', when: pendingBilling, run: ({ actions }) => void actions.run.reconcileRun(true) },
  { id: 'run-reads-unconfirmed', scope: 'run', keys: [{ input: 'u' }], label: 'u', description: 'reads not confirmed', when: pendingBilling, run: ({ actions }) => void actions.run.reconcileRun(false) },
  ...scrollCommands('run', (actions, delta, max) => actions.run.scrollRun(delta, max)),
  { id: 'run-back', scope: 'run', keys: [{ key: 'escape' }], label: 'esc', description: 'runs', run: ({ actions }) => actions.run.closeRun() },

];
