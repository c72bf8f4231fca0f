import type { ProbeDef, ProbeKind } from './probes/index.ts';

/** How many requests of each kind the check may send to the service, before it sends any (issue 30). */
export function planText(url: string, probes: ProbeDef[], testEnvironment: boolean): string {
  const count = (kind: ProbeKind, filter: (p: ProbeDef) => boolean = () => true) => probes.filter((p) => p.kind === kind && filter(p)).length;
  const ethOnly = (p: ProbeDef) => ['monitors-list', 'monitor-unknown', 'notifications-list', 'monitor-create-refused'].includes(p.id);
  const lines = [
    `The drift check will send to ${url}, at most:`,
    `  ${count('read', (p) => !ethOnly(p))} reads with your key (the key, the catalog, a rail catalog, capabilities, refused reads; nothing changes)`,
    `  ${count('keyless read')} read without a key (the description)`,
    `  ${count('quote creation')} quote creations (a quote reserves nothing and does not count against the spend limit, spec 2.7)`,
    `  ${count('refused acceptance')} acceptances with a wrong contract hash (refused before anything is reserved, spec 4.5)`,
    `  for an ETH key: ${count('read', ethOnly)} monitor and notification reads` +
      (testEnvironment ? '; the monitor creation is skipped (a test-environment key would create one)' : ` and ${count('refused monitor creation')} monitor creation (refused in production in every form, spec 4.10)`),
    'It never accepts a quote with its right hash, cancels, stops or acknowledges anything. It keeps your',
    "key's rate limit and 10 quotes a minute, waits out Retry-After, and never retries a quote creation.",
    'The same probes go to an embedded simulator in the production environment, holding a key made like yours.',
  ];
  return `${lines.join('\n')}\n`;
}
