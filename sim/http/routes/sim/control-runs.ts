import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { ScriptBody } from '../../../domain/runs/index.ts';
import type { CatalogService, RunsService } from '../../../domain/services.ts';
import { AmountInput, IdParams, Uuid } from '../../schemas/common.ts';

/** Control API for runs, listings and the platform queue (contract section 2). */
const hide = { hide: true, tags: ['control'] };

const ScriptSchema = Type.Object(
  {
    outcome: Type.String({ enum: ['succeeded', 'partial', 'failed'] }),
    rpcCalls: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    unconfirmedRpcCalls: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    modelCostAtomic: Type.Optional(AmountInput),
    durationSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
    failure: Type.Optional(Type.String({ enum: ['platform', 'research'] })),
    coverageGaps: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 10 })),
    // Up to twice the largest maximumOutputBytes of the catalog (1 MiB): enough to go over any agent's limit.
    outputBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_097_152 })),
  },
  { additionalProperties: false },
);

export function controlRunRoutes(app: FastifyInstance, { runs, catalog }: { runs: RunsService; catalog: CatalogService }): void {
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

  app.get('/sim/runs', {
    schema: { ...hide, querystring: Type.Object({ accountId: Type.Optional(Uuid) }, { additionalProperties: false }) },
    handler: async (request) => ({ runs: runs.list((request.query as { accountId?: string }).accountId) }),
  });

  app.get('/sim/runs/:id', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => runs.detail(idOf(request)),
  });

  app.post('/sim/runs/:id/script', {
    schema: { ...hide, params: IdParams, body: ScriptSchema },
    handler: async (request) => ({ run: runs.script(idOf(request), request.body as ScriptBody) }),
  });

  app.post('/sim/runs/:id/reconcile', {
    schema: { ...hide, params: IdParams, body: Type.Object({ confirmed: Type.Boolean() }, { additionalProperties: false }) },
    handler: async (request) => ({ billing: runs.reconcile(idOf(request), (request.body as { confirmed: boolean }).confirmed) }),
  });

  app.post('/sim/runs/:id/export/expire', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => {
      runs.expireExport(idOf(request));
      return { ok: true };
    },
  });

  // The platform-wide queue bound (spec 8, not shown; LIMITS.platformQueueBound by default), to rehearse a full queue.
  app.get('/sim/platform-queue', { schema: hide, handler: async () => ({ queue: runs.queue() }) });

  app.put('/sim/platform-queue', {
    schema: { ...hide, body: Type.Object({ platformQueueBound: Type.Integer({ minimum: 0, maximum: 1_000_000 }) }, { additionalProperties: false }) },
    handler: async (request) => ({ queue: runs.setQueueBound((request.body as { platformQueueBound: number }).platformQueueBound) }),
  });

  app.patch('/sim/listings/:id', {
    schema: { ...hide, params: IdParams, body: Type.Object({ active: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) },
    handler: async (request) => ({ listing: catalog.setListingActive(idOf(request), (request.body as { active?: boolean }).active) }),
  });
}
