import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { RunsService } from '../../../domain/services.ts';
import { noteRunRead } from '../../plugins/answer-facts.ts';
import { keyOf } from '../../plugins/auth.ts';
import { errorResponses, IdParams, NoQuery } from '../../schemas/common.ts';
import { ExportDoc, Receipt } from '../../schemas/quote.ts';

/** Run reads and cancel (spec 4.6–4.9). */
export function runRoutes(app: FastifyInstance, { runs }: { runs: RunsService }): void {
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

  app.get('/v1/runs/:id', {
    config: { auth: 'key', scope: 'runs:read' },
    schema: {
      tags: ['runs'],
      operationId: 'getRun',
      summary: 'A run and its events',
      description: 'Poll from about 1 s, backing off to about 10 s, until the status is terminal.',
      params: IdParams,
      querystring: NoQuery,
      response: { 200: Type.Object({ run: Type.Ref('Run'), events: Type.Array(Type.Ref('RunEvent'), { maxItems: 250 }) }), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (request) => {
      const { run, answer } = runs.read(keyOf(request), idOf(request));
      noteRunRead(request, run);
      return answer();
    },
  });

  app.post('/v1/runs/:id/cancel', {
    config: { auth: 'key', scope: 'runs:cancel' },
    schema: {
      tags: ['runs'],
      operationId: 'cancelRun',
      summary: 'Cancel a queued or running run',
      params: IdParams,
      querystring: NoQuery,
      response: { 200: Type.Object({ run: Type.Ref('Run') }), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (request) => ({ run: runs.cancel(keyOf(request), idOf(request)) }),
  });

  app.get('/v1/runs/:id/export', {
    config: { auth: 'key', scope: 'runs:read' },
    schema: {
      tags: ['runs'],
      operationId: 'exportRun',
      summary: 'The canonical export of a run',
      params: IdParams,
      querystring: NoQuery,
      response: { 200: ExportDoc, ...errorResponses(400, 401, 403, 404, 409, 410, 429, 503) },
    },
    handler: async (request, reply) => {
      const artifact = runs.export(keyOf(request), idOf(request));
      // The stored canonical bytes are sent as they are, not re-serialised.
      return reply.header('x-service-artifact-id', artifact.artifactId).type('application/json; charset=utf-8').serializer((p: unknown) => p as string).send(artifact.body);
    },
  });

  app.get('/v1/runs/:id/receipt', {
    config: { auth: 'key', scope: 'billing:read' },
    schema: { tags: ['runs'], operationId: 'getReceipt', summary: 'The settlement receipt of a run', params: IdParams, querystring: NoQuery, response: { 200: Receipt, ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => runs.receipt(keyOf(request), idOf(request)),
  });
}
