import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { ScriptBody } from '../../../domain/runs/index.ts';
import type { CatalogService, RunsService } from '../../../domain/services.ts';
import type { ListingVersion } from '../../../domain/catalog/index.ts';
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

/** An immutable listing version as the export shows it (spec 2.12): the fields quotes and runs read are required. */
const Tariff = Type.Object(
  {
    profile: Type.String({ minLength: 1, maxLength: 40 }),
    creatorFeeAtomic: AmountInput,
    rpcCallAtomic: AmountInput,
    model: Type.Union([Type.Null(), Type.Object({ costCapAtomic: AmountInput, rateAtomic: AmountInput }, { additionalProperties: false })]),
  },
  { additionalProperties: false },
);
const VersionSchema = Type.Object(
  {
    id: Uuid,
    listingId: Uuid,
    priceRevision: Type.Integer({ minimum: 0 }),
    createdAt: Type.String({ format: 'date-time' }),
    manifest: Type.Object(
      {
        limits: Type.Object({ maximumRpcCalls: Type.Integer({ minimum: 0 }), maximumDurationMs: Type.Integer({ minimum: 1 }), maximumOutputBytes: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
        inputFields: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })),
      },
      { additionalProperties: true },
    ),
    tariffs: Type.Array(Tariff, { minItems: 1, maxItems: 10 }),
    resultContracts: Type.Array(Type.Object({ policy: Type.String(), contract: Type.String() }, { additionalProperties: false })),
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

  app.put('/sim/listings/:id/versions/:versionId', {
    schema: { ...hide, params: Type.Object({ id: Uuid, versionId: Uuid }), body: VersionSchema },
    handler: async (request) => {
      const { id, versionId } = request.params as { id: string; versionId: string };
      return catalog.publishListingVersion(id, versionId, request.body as ListingVersion);
    },
  });

  app.patch('/sim/listings/:id', {
    schema: { ...hide, params: IdParams, body: Type.Object({ active: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) },
    handler: async (request) => ({ listing: catalog.setListingActive(idOf(request), (request.body as { active?: boolean }).active) }),
  });
}
