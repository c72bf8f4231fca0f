import { afterEach, describe, expect, it } from 'vitest';
import type { DriftOutcome } from '../../src/tui/state/drift.ts';
import { startConsole, type ConsoleHarness } from './console-harness.tsx';

/** Issue 30: in --url mode the key screen offers the drift check; D once says what it sends, D again runs it and shows its summary. */
let h: ConsoleHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const REMOTE = { url: 'https://service.example/', controlToken: null, isEmbedded: false };

describe('the drift check on the key screen', () => {
  it('is offered against a remote service: asked first, then run, then its summary', async () => {
    const runs: number[] = [];
    let finish: (outcome: DriftOutcome) => void = () => {};
    const driftCheck = () => {
      runs.push(1);
      return new Promise<DriftOutcome>((resolve) => (finish = resolve));
    };
    h = await startConsole({ controlAvailable: false, store: { service: REMOTE, driftCheck } });
    await h.waitForFrame('D: is this service still what the simulator rehearses?');
    h.press('D');
    await h.waitForFrame('Press D again to send them');
    expect(runs).toEqual([]);
    h.press('D');
    await h.waitForFrame('Comparing https://service.example/ with the simulator');
    expect(runs).toEqual([1]);
    finish({ exitCode: 1, summary: ['Score: 30 of 33 compared probes the same (91%); 3 differ, 2 not compared.', 'Differences stated by the spec: 2 (!); left open by the spec: 1 (~).'], reportFile: '.understudy/drift-report.json' });
    await h.waitForFrame('Something the spec states differs, or the check could not run. Report: .understudy/drift-report.json');
    expect(h.lastFrame()).toContain('Score: 30 of 33 compared probes the same');
  });

  it('is not offered on the embedded simulator', async () => {
    h = await startConsole({ store: { driftCheck: async () => ({ exitCode: 0, summary: [], reportFile: '' }) } });
    await h.waitForFrame('demo local_custody');
    expect(h.lastFrame()).not.toContain('drift check');
    expect(h.lastFrame()).not.toContain('D: is this service');
  });
});
