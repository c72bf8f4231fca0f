import type { ScenarioStepper, StepView } from '../tui/scenario-stepper.ts';
import { loadScenario } from './load.ts';
import { openScenarioSession } from './runner.ts';
import { redact } from './transcript.ts';

/** Reads and checks a scenario file, then provisions it on a fresh simulator, ready to step. */
export async function openScenarioFile(file: string): Promise<ScenarioStepper> {
  const scenario = await loadScenario(file);
  const session = await openScenarioSession(scenario, file);
  return {
    name: scenario.name,
    description: scenario.description ?? null,
    file,
    total: scenario.steps.length,
    provisioned: session.result.provisioned,
    nextIndex: () => session.nextIndex,
    isDone: () => session.done,
    async step() {
      const result = await session.step();
      if (!result) throw new Error('The scenario has no more steps.');
      const balances = (await session.balances()).map((b) => ({ name: b.account, accountId: b.accountId, balances: b.balances }));
      // Ports and secrets are shown as the transcript shows them.
      return JSON.parse(redact(JSON.stringify({ ...result, balances }), session.result)) as StepView;
    },
    close: () => session.close(),
  };
}
