/**
 * What running a scenario reports, step by step: plain types with no imports,
 * so the console's scenario screen (src/tui/scenario-stepper.ts) can show a
 * step without importing the runner, which starts a simulator.
 */
export interface CheckResult {
  ok: boolean;
  what: string;
  expected?: unknown;
  actual?: unknown;
}

export interface StepResult {
  index: number;
  name: string | null;
  action: string;
  request: { method: string; path: string; key?: string; headers?: Record<string, string>; body?: unknown } | null;
  status: number | null;
  body: unknown;
  saved: Record<string, unknown>;
  checks: CheckResult[];
  error: string | null;
}

export interface ScenarioResult {
  name: string;
  file: string;
  seed: string;
  env: string;
  passed: boolean;
  provisioned: string[];
  steps: StepResult[];
  /** Strings to replace in any printed output: ports and secrets differ between runs or must not be shown. */
  redactions: Array<[string, string]>;
}
