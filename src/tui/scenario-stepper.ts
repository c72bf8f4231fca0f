import type { SimBalance } from '../client/types.ts';
import type { CheckResult, StepResult } from '../scenario/result.ts';

/**
 * What the console's scenario screen steps through: one step at a time, each
 * step's request, answer and the ledger balances right after it. The console
 * only knows this shape; src/scenario/stepper.ts implements it and src/cli/tui.ts hands it in (a
 * src/scenario session on its own fresh simulator), so the console never
 * imports the simulator or the runner (only the runner's result types).
 */
export type StepCheck = CheckResult;

export interface AccountBalances {
  /** The scenario's name for the account (`payer`, `demo-evm`, ...). */
  name: string;
  accountId: string;
  balances: SimBalance[];
}

export interface StepView extends StepResult {
  /** Every account of the scenario, read after the step. */
  balances: AccountBalances[];
}

export interface ScenarioStepper {
  name: string;
  description: string | null;
  file: string;
  total: number;
  provisioned: string[];
  /** The index of the step `step()` runs next; equals `total` when done. */
  nextIndex(): number;
  isDone(): boolean;
  step(): Promise<StepView>;
  close(): Promise<void>;
}

