import type { ScenarioStepper } from '../scenario-stepper.ts';
import { clampScroll } from './agent.ts';
import { toDisplayError, type SliceContext } from './call.ts';
import type { ConsoleActions, ScenarioState } from './types.ts';

type ScenarioActions = Pick<ConsoleActions, 'askScenarioFile' | 'openScenario' | 'stepScenario' | 'runScenarioToEnd' | 'moveScenarioStep' | 'closeScenario' | 'scrollScenario'>;

export const DEFAULT_SCENARIO_FILE = 'fixtures/scenarios/01-complete-report-charged.json';

export const emptyScenario = (): ScenarioState => ({ file: null, name: null, description: null, total: 0, next: 0, provisioned: [], steps: [], selected: 0, isBusy: false, scroll: 0 });

/**
 * Scenario stepping: a scenario file runs on a fresh simulator of its own (as
 * `npm run scenario` does), one step per key, never on the console's.
 */
export function scenarioActions({ set, get }: SliceContext, open: ((file: string) => Promise<ScenarioStepper>) | null | undefined): ScenarioActions {
  let stepper: ScenarioStepper | null = null;
  const patch = (partial: Partial<ScenarioState>) => set((s) => ({ scenario: { ...s.scenario, ...partial } }));

  async function closeStepper() {
    const closing = stepper;
    stepper = null;
    if (closing) await closing.close().catch(() => undefined);
  }

  async function stepOnce(): Promise<boolean> {
    if (!stepper || stepper.isDone()) return false;
    const view = await stepper.step();
    const steps = [...get().scenario.steps, view];
    patch({ steps, selected: steps.length - 1, next: stepper.nextIndex(), scroll: 0 });
    return !stepper.isDone();
  }

  return {
    askScenarioFile() {
      set({ prompt: { title: 'Scenario file', value: get().scenario.file ?? DEFAULT_SCENARIO_FILE, target: { kind: 'scenario-file' } } });
    },

    async openScenario(file) {
      if (!open) {
        set({ error: { code: 'console_error', message: 'Scenario stepping needs the embedded simulator (not available with --url).', status: null } });
        return;
      }
      await closeStepper();
      set({ error: null, notice: null });
      patch({ ...emptyScenario(), file, isBusy: true });
      try {
        stepper = await open(file);
        patch({ name: stepper.name, description: stepper.description, total: stepper.total, next: 0, provisioned: stepper.provisioned, isBusy: false });
      } catch (error) {
        patch({ isBusy: false });
        set({ error: toDisplayError(error) });
      }
    },

    async stepScenario() {
      if (!stepper || get().scenario.isBusy) return;
      patch({ isBusy: true });
      try {
        await stepOnce();
      } catch (error) {
        set({ error: toDisplayError(error) });
      } finally {
        patch({ isBusy: false });
      }
    },

    async runScenarioToEnd() {
      if (!stepper || get().scenario.isBusy) return;
      patch({ isBusy: true });
      try {
        while (await stepOnce());
      } catch (error) {
        set({ error: toDisplayError(error) });
      } finally {
        patch({ isBusy: false });
      }
    },

    moveScenarioStep(delta) {
      const { steps, selected } = get().scenario;
      patch({ selected: Math.min(Math.max(0, steps.length - 1), Math.max(0, selected + delta)), scroll: 0 });
    },

    async closeScenario() {
      await closeStepper();
      patch(emptyScenario());
    },

    scrollScenario(delta, maxScroll) {
      set((s) => ({ scenario: { ...s.scenario, scroll: clampScroll(s.scenario.scroll + delta, maxScroll) } }));
    },
  };
}
