import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../../domain/errors.ts';

/**
 * A stop under way (BuiltSimulator.close): requests already in flight finish,
 * and their answers carry `Connection: close`, so their keep-alive connections
 * end with them instead of at the keep-alive timeout; a request that still
 * arrives on an old connection is answered 503 (the spec's error body), with
 * `Connection: close` too. Fastify's own return503OnClosing answers with a body
 * of its own, so it stays off and these hooks answer instead.
 */
export function installStopping(app: FastifyInstance): { begin(): void } {
  let stopping = false;
  const refusal = errors.unavailable('The simulator is stopping. Send the request again once it has restarted.');
  app.addHook('onRequest', (_request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (stopping) done(refusal);
    else done();
  });
  app.addHook('onSend', (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    if (stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  return {
    begin() {
      stopping = true;
    },
  };
}
