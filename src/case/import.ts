import type { Scenario } from '../scenario/format.ts';
import { validateScenario } from '../scenario/validate.ts';
import type { CaseDocument } from './documents.ts';
import { caseFacts, type CaseFacts } from './facts.ts';
import { reproduceCase } from './reproduce.ts';

/**
 * `case import`: the customer's documents as one case and its reproducing
 * scenario. Plain: it runs nothing (the console uses it too), so it does not
 * reach the scenario runner or the simulator.
 */
export function importCase(documents: CaseDocument[]): { facts: CaseFacts; scenario: Scenario; assumptions: string[] } {
  const facts = caseFacts(documents);
  const { scenario, assumptions } = reproduceCase(facts);
  // The scenario must be one the runner accepts as a file: check it as one.
  validateScenario(JSON.parse(JSON.stringify(scenario)), '(reproduction)');
  return { facts, scenario, assumptions };
}
