import { open, stated, type Tag } from './decisions.ts';
import type { Difference } from './difference.ts';
import type { Expectation, ProbeDef } from './probes/types.ts';

export type { Difference } from './difference.ts';
import { compareShapes } from './compare-shapes.ts';
import { ERROR } from './spec-fields.ts';
import { shapeOf } from './shape.ts';
import type { Exchange } from './wire.ts';


const errorOf = (answer: Exchange) => {
  const error = (answer.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return error && typeof error.code === 'string' && typeof error.message === 'string' ? { code: error.code, message: error.message } : undefined;
};

/** Compares one probe's two answers: status, error code and message, the spec's headers, the shape, the relations. */
export function compareAnswers(probe: ProbeDef, service: Exchange, simulator: Exchange): Difference[] {
  const differences: Difference[] = [];
  const { expect } = probe;
  if (service.status !== simulator.status) differences.push({ aspect: 'status', where: 'status', service: String(service.status), simulator: String(simulator.status), tag: expect.status });
  differences.push(...compareHeaders(probe, service, simulator));
  const [serviceError, simulatorError] = [errorOf(service), errorOf(simulator)];
  if (serviceError && simulatorError) {
    if (serviceError.code !== simulatorError.code) differences.push({ aspect: 'code', where: 'error.code', service: serviceError.code, simulator: simulatorError.code, tag: expect.code ?? open('error-codes') });
    if (serviceError.message !== simulatorError.message) differences.push({ aspect: 'message', where: 'error.message', service: serviceError.message, simulator: simulatorError.message, tag: messageTag(expect, serviceError.message, simulatorError.message) });
  }
  const bothSucceeded = service.status < 300 && simulator.status < 300;
  if (probe.compare && bothSucceeded) differences.push(...probe.compare(service, simulator));
  else if (bothSucceeded ? expect.answer : serviceError && simulatorError) {
    differences.push(...compareShapes(bothSucceeded ? expect.answer! : ERROR, shapeOf(service.body), shapeOf(simulator.body)));
  } else if (service.status === simulator.status && !bothSucceeded && !(serviceError && simulatorError)) {
    // Spec 2.16: every error has the error body; one side without it differs.
    differences.push({ aspect: 'field', where: 'error', service: serviceError ? 'an error body' : 'no error body', simulator: simulatorError ? 'an error body' : 'no error body', tag: stated('2.16') });
  }
  if (probe.relations) differences.push(...compareRelations(probe, service, simulator));
  return differences;
}

function messageTag(expect: Expectation, service: string, simulator: string): Tag {
  if (!expect.message) return open('messages');
  return typeof expect.message === 'function' ? expect.message(service, simulator) : expect.message;
}

const mediaType = (value: string | undefined) => value?.split(';')[0].trim().toLowerCase();

/** The headers the spec names (2.1, 2.12, 7): content-type, cache-control, Retry-After's presence, X-Service-Artifact-Id's presence. */
function compareHeaders(probe: ProbeDef, service: Exchange, simulator: Exchange): Difference[] {
  const differences: Difference[] = [];
  const show = (value: string | undefined) => value ?? '(absent)';
  const [serviceType, simulatorType] = [mediaType(service.headers['content-type']), mediaType(simulator.headers['content-type'])];
  // Spec 4: "All endpoints use JSON".
  if (serviceType !== simulatorType) differences.push({ aspect: 'header', where: 'content-type', service: show(serviceType), simulator: show(simulatorType), tag: stated('4') });
  const [serviceCache, simulatorCache] = [service.headers['cache-control']?.trim().toLowerCase(), simulator.headers['cache-control']?.trim().toLowerCase()];
  if (serviceCache !== simulatorCache) {
    // Spec 2.1 states no-store for keyed requests; what an unkeyed answer carries is the simulator's choice.
    differences.push({ aspect: 'header', where: 'cache-control', service: show(serviceCache), simulator: show(simulatorCache), tag: probe.kind === 'keyless read' ? open('no-store') : stated('2.1') });
  }
  const presence = (answer: Exchange, name: string) => (answer.headers[name] === undefined ? 'absent' : 'present');
  if (presence(service, 'retry-after') !== presence(simulator, 'retry-after')) {
    differences.push({ aspect: 'header', where: 'retry-after', service: presence(service, 'retry-after'), simulator: presence(simulator, 'retry-after'), tag: open('rate-windows') });
  }
  if (presence(service, 'x-service-artifact-id') !== presence(simulator, 'x-service-artifact-id')) {
    differences.push({ aspect: 'header', where: 'x-service-artifact-id', service: presence(service, 'x-service-artifact-id'), simulator: presence(simulator, 'x-service-artifact-id'), tag: open('export-artifacts') });
  }
  return differences;
}

/** A relation broken on one side only, or on both, is a difference from the spec's statement (2.7). */
function compareRelations(probe: ProbeDef, service: Exchange, simulator: Exchange): Difference[] {
  if (service.status >= 300 || simulator.status >= 300) return [];
  const [serviceBroken, simulatorBroken] = [probe.relations!(service), probe.relations!(simulator)];
  const all = [...new Set([...serviceBroken, ...simulatorBroken])];
  return all.map((relation) => ({
    aspect: 'relation' as const,
    where: relation.split(':')[0],
    service: serviceBroken.find((r) => r.split(':')[0] === relation.split(':')[0]) ?? 'holds',
    simulator: simulatorBroken.find((r) => r.split(':')[0] === relation.split(':')[0]) ?? 'holds',
    tag: stated('2.7'),
  })).filter((d, i, list) => list.findIndex((o) => o.where === d.where) === i);
}
