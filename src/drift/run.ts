import { randomUUID } from 'node:crypto';
import { Pacer, realTime, type PacerTime } from './pacer.ts';
import { probeSet, type ProbeDef, type SideContext } from './probes/index.ts';
import { isSkip, runSide, type SideOutcome } from './side.ts';
import type { DriftTarget } from './target.ts';
import { keyObjectOf, startTwin } from './twin.ts';
import { judge, skewOf, type ProbeResult } from './verdict.ts';
import type { Exchange } from './wire.ts';

export interface DriftReport {
  url: string;
  /** svc_test_ key: state-changing probes were skipped. */
  testEnvironment: boolean;
  probes: ProbeResult[];
  /** Each side's clock against this machine's (Date headers), in seconds. */
  skew: { service: number | null; simulator: number | null };
  score: { same: number; differs: number; couldNotCompare: number; statedDifferences: number; openDifferences: number; percentSame: number };
  /** Set when the check could not run at all (the key refused ...). */
  failure?: string;
}

export interface DriftOptions {
  target: DriftTarget;
  time?: PacerTime;
  /** Told of each answer as it arrives (the command prints progress). */
  onAnswer?: (side: 'service' | 'simulator', probe: ProbeDef, outcome: SideOutcome) => void;
}

const context = (side: SideContext['side'], unknownId: string, testEnvironment: boolean): SideContext => ({ side, unknownId, testEnvironment });

/**
 * The drift check: the probe set against the service, then against an
 * embedded simulator holding a key like the user's, and a verdict per probe.
 */
export async function runDrift(options: DriftOptions): Promise<DriftReport> {
  const time = options.time ?? realTime;
  const { target } = options;
  const token = randomUUID().replace(/-/g, '').slice(0, 16);
  const unknownId = randomUUID();
  const probes = probeSet(token);
  const serviceCtx = context('service', unknownId, target.testEnvironment);
  const service = await runSide({ url: target.url, key: target.key, probes, ctx: serviceCtx, pacer: new Pacer(time), time, onAnswer: (p, o) => options.onAnswer?.('service', p, o) });
  const keyAnswer = service.get('key') as Exchange;
  const key = keyAnswer.status === 200 ? keyObjectOf(keyAnswer.body) : undefined;
  if (!key) {
    const why = keyAnswer.failure ?? `GET /v1/buyer/key answered ${keyAnswer.status}${keyAnswer.text ? `: ${keyAnswer.text.slice(0, 200)}` : ''}`;
    return finish(target, probes, service, new Map(), `the service did not show the key (${why}), so no key like it can be made to compare with.`);
  }
  const twin = await startTwin(key, serviceCtx, time.now);
  try {
    const simulator = await runSide({ url: twin.url, key: twin.key, probes, ctx: context('simulator', unknownId, target.testEnvironment), pacer: new Pacer(time), time, onAnswer: (p, o) => options.onAnswer?.('simulator', p, o) });
    return finish(target, probes, service, simulator);
  } finally {
    await twin.stop();
  }
}

function finish(target: DriftTarget, probes: ProbeDef[], service: Map<string, SideOutcome>, simulator: Map<string, SideOutcome>, failure?: string): DriftReport {
  const notSent = { skip: 'not sent: the check stopped before this side' };
  const results = probes.map((p) => judge(p, service.get(p.id) ?? notSent, simulator.get(p.id) ?? notSent));
  const count = (verdict: ProbeResult['verdict']) => results.filter((r) => r.verdict === verdict).length;
  const differences = results.flatMap((r) => r.differences);
  const same = count('same');
  const compared = same + count('differs');
  return {
    url: target.url,
    testEnvironment: target.testEnvironment,
    probes: results,
    skew: { service: skewOf(service.values()), simulator: skewOf([...simulator.values()].filter((o) => !isSkip(o))) },
    score: {
      same,
      differs: count('differs'),
      couldNotCompare: count('could not be compared'),
      statedDifferences: differences.filter((d) => d.stated).length,
      openDifferences: differences.filter((d) => !d.stated).length,
      percentSame: compared === 0 ? 0 : Math.round((same / compared) * 100),
    },
    ...(failure ? { failure } : {}),
  };
}

/** Exit 0 only when nothing the spec states differs (and the check ran). */
export const exitCodeOf = (report: DriftReport) => (report.failure || report.score.statedDifferences > 0 ? 1 : 0);
