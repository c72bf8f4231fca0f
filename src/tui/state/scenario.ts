import type { ScenarioStepper, StepView } from '../scenario-stepper.ts';
import { clampScroll } from './scroll.ts';
import { toDisplayError, type SliceContext } from './call.ts';
import type { ConsoleStoreOptions, Pacer } from './options.ts';

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

export interface ScenarioActions {
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

declare module './console-state.ts' {
  interface ConsoleData {
    scenario: ScenarioState;
  }
  interface ConsoleActions {
    scenario: ScenarioActions;
  }
}

/** How many files opened before the picker lists first. */
const RECENT_FILES = 5;

const timerPacer: Pacer = (ms, step) => {
  const timer = setTimeout(step, ms);
  return () => clearTimeout(timer);
};

export const DEFAULT_SCENARIO_FILE = 'fixtures/scenarios/01-complete-report-charged.json';

export const emptyScenario = (): ScenarioState => ({ picker: null, recent: [], presenter: null, file: null, name: null, description: null, total: 0, next: 0, provisioned: [], steps: [], selected: 0, isBusy: false, scroll: 0 });

/**
 * Scenario stepping: a scenario file runs on a fresh simulator of its own (as
 * `npm run scenario` does), one step per key, never on the console's.
 */
export function scenarioActions({ set, get }: SliceContext, options: Pick<ConsoleStoreOptions, 'openScenario' | 'listScenarioFiles' | 'pacer'>): ScenarioActions {
  const open = options.openScenario;
  const pacer = options.pacer ?? timerPacer;
  let stepper: ScenarioStepper | null = null;
  let cancelPace: (() => void) | null = null;
  const patch = (partial: Partial<ScenarioState>) => set((s) => ({ scenario: { ...s.scenario, ...partial } }));

  function stopPacing() {
    cancelPace?.();
    cancelPace = null;
  }

  async function closeStepper() {
    stopPacing();
    const closing = stepper;
    stepper = null;
    if (closing) await closing.close().catch(() => undefined);
  }

  /** Presenter mode: the next step after the pace, unless paused, done or closed meanwhile. */
  function paceNext() {
    stopPacing();
    const { presenter } = get().scenario;
    if (!presenter || presenter.isPaused || !stepper || stepper.isDone()) return;
    const playing = stepper;
    cancelPace = pacer(presenter.paceMs, () => {
      cancelPace = null;
      if (stepper !== playing || get().scenario.presenter?.isPaused) return;
      void get()
        .actions.scenario.stepScenario()
        .then(() => {
          if (stepper === playing) paceNext();
        });
    });
  }

  async function stepOnce(): Promise<boolean> {
    if (!stepper || stepper.isDone()) return false;
    const view = await stepper.step();
    const steps = [...get().scenario.steps, view];
    patch({ steps, selected: steps.length - 1, next: stepper.nextIndex(), scroll: 0 });
    return !stepper.isDone();
  }

  function needsEmbedded() {
    set({ error: { code: 'console_error', message: 'Scenario stepping needs the embedded simulator (not available with --url).', status: null } });
  }

  return {
    askScenarioFile() {
      const { picker, file } = get().scenario;
      const value = picker?.choices[picker.selected]?.file ?? file ?? DEFAULT_SCENARIO_FILE;
      patch({ picker: null });
      set({ prompt: { title: 'Scenario file', value, target: { kind: 'scenario-file' } } });
    },

    async openScenarioPicker() {
      if (!open) return needsEmbedded();
      const files = (await options.listScenarioFiles?.()) ?? [];
      const { recent, file } = get().scenario;
      const choices = [...recent.map((f) => ({ file: f, isRecent: true })), ...files.filter((f) => !recent.includes(f)).map((f) => ({ file: f, isRecent: false }))];
      // The file open now (or the default) is where the cursor starts.
      const start = choices.findIndex((c) => c.file === (file ?? DEFAULT_SCENARIO_FILE));
      patch({ picker: { choices, selected: Math.max(0, start) } });
    },

    moveScenarioPick(delta) {
      const { picker } = get().scenario;
      if (!picker || picker.choices.length === 0) return;
      patch({ picker: { ...picker, selected: Math.min(picker.choices.length - 1, Math.max(0, picker.selected + delta)) } });
    },

    async openPickedScenario() {
      const { picker } = get().scenario;
      const choice = picker?.choices[picker.selected];
      if (!choice) return;
      patch({ picker: null });
      await get().actions.scenario.openScenario(choice.file);
    },

    closeScenarioPicker() {
      patch({ picker: null });
    },

    async openScenario(file) {
      if (!open) return needsEmbedded();
      await closeStepper();
      set({ error: null, notice: null });
      const { recent } = get().scenario;
      patch({ ...emptyScenario(), recent, file, isBusy: true });
      try {
        stepper = await open(file);
        patch({
          name: stepper.name,
          description: stepper.description,
          total: stepper.total,
          next: 0,
          provisioned: stepper.provisioned,
          isBusy: false,
          recent: [file, ...recent.filter((f) => f !== file)].slice(0, RECENT_FILES),
        });
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
      patch({ ...emptyScenario(), recent: get().scenario.recent });
    },

    async playScenario(file, paceMs) {
      set({ screen: 'scenario', isHelpOpen: false });
      await get().actions.scenario.openScenario(file);
      if (!stepper) return;
      patch({ presenter: { paceMs, isPaused: false } });
      paceNext();
    },

    togglePresenterPause() {
      const { presenter } = get().scenario;
      if (!presenter) return;
      patch({ presenter: { ...presenter, isPaused: !presenter.isPaused } });
      if (presenter.isPaused) paceNext();
      else stopPacing();
    },

    scrollScenario(delta, maxScroll) {
      set((s) => ({ scenario: { ...s.scenario, scroll: clampScroll(s.scenario.scroll + delta, maxScroll) } }));
    },
  };
}
