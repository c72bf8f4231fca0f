import type { ConsoleState } from '../state/console-state.ts';
import { selectCommands, type Command } from './command.ts';

const scenarioOpen = (state: ConsoleState) => state.scenario.name !== null;
const scenarioStepsLeft = (state: ConsoleState) => scenarioOpen(state) && !state.scenario.isBusy && state.scenario.next < state.scenario.total;

/** Stepping a scenario, presenter mode (--play), and the scenario picker. */
export const scenarioCommands: Command[] = [
  // scenario stepping; presenter mode (--play) steps on its own, and space pauses it
  { id: 'scenario-open', scope: 'scenario', keys: [{ input: 'o' }], label: 'o', description: 'open file', run: ({ actions }) => void actions.scenario.openScenarioPicker() },
  { id: 'scenario-step', scope: 'scenario', keys: [{ input: 'n' }, { input: ' ' }], label: 'n', helpKeys: 'n space', description: 'next step', when: scenarioStepsLeft, run: ({ actions }) => void actions.scenario.stepScenario() },
  { id: 'scenario-all', scope: 'scenario', keys: [{ input: 'a' }], label: 'a', description: 'run to end', when: scenarioStepsLeft, run: ({ actions }) => void actions.scenario.runScenarioToEnd() },
  ...selectCommands('scenario', (actions, delta) => actions.scenario.moveScenarioStep(delta), 'step'),
  {
    id: 'scenario-page-down',
    scope: 'scenario',
    keys: [{ key: 'pageDown' }],
    label: 'pgdn',
    helpKeys: 'pgdn pgup',
    description: 'scroll step',
    isHintHidden: true,
    run: ({ actions, view }) => actions.scenario.scrollScenario(view.pageRows ?? 5, view.maxScroll ?? 0),
  },
  {
    id: 'scenario-page-up',
    scope: 'scenario',
    keys: [{ key: 'pageUp' }],
    label: 'pgup',
    description: 'scroll step up',
    isHintHidden: true,
    isHelpHidden: true,
    run: ({ actions, view }) => actions.scenario.scrollScenario(-(view.pageRows ?? 5), view.maxScroll ?? 0),
  },
  { id: 'scenario-close', scope: 'scenario', keys: [{ input: 'x' }], label: 'x', description: 'close', when: scenarioOpen, run: ({ actions }) => void actions.scenario.closeScenario() },

  // presenter mode (--play): the steps run on their own, one per pace
  { id: 'presenter-pause', scope: 'presenter', keys: [{ input: ' ' }], label: 'space', description: 'pause/resume', run: ({ actions }) => actions.scenario.togglePresenterPause() },
  { id: 'presenter-step', scope: 'presenter', keys: [{ input: 'n' }], label: 'n', description: 'next step now', run: ({ actions }) => void actions.scenario.stepScenario() },
  ...selectCommands('presenter', (actions, delta) => actions.scenario.moveScenarioStep(delta), 'step'),
  { id: 'presenter-stop', scope: 'presenter', keys: [{ input: 'x' }], label: 'x', description: 'close', run: ({ actions }) => void actions.scenario.closeScenario() },

  // the scenario picker: shipped fixtures and recent files
  ...selectCommands('scenario-picker', (actions, delta) => actions.scenario.moveScenarioPick(delta), 'file'),
  { id: 'scenario-picker-open', scope: 'scenario-picker', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.scenario.openPickedScenario() },
  { id: 'scenario-picker-type', scope: 'scenario-picker', keys: [{ input: 't' }, { input: '/' }], label: 't', helpKeys: 't /', description: 'type a path', run: ({ actions }) => actions.scenario.askScenarioFile() },
  { id: 'scenario-picker-close', scope: 'scenario-picker', keys: [{ key: 'escape' }], label: 'esc', description: 'close', run: ({ actions }) => actions.scenario.closeScenarioPicker() },
];
