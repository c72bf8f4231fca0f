import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { LogInput } from '../../../domain/chains/index.ts';
import type { CreateMonitorBody as CreateInput } from '../../../domain/chains/index.ts';
import type { ChainsService, DeliveriesService, MonitorsService } from '../../../domain/services.ts';
import { IdParams, Uuid } from '../../schemas/common.ts';
import { CreateMonitorBody } from '../../schemas/monitor.ts';

/** Control API for chains, owner-created monitors, destinations, subscriptions and the delivery log. */
const hide = { hide: true, tags: ['control'] };

const Log = Type.Object(
  {
    address: Type.String({ minLength: 1, maxLength: 100 }),
    event: Type.String({ minLength: 1, maxLength: 64 }),
    args: Type.Record(Type.String(), Type.String({ maxLength: 200 })),
    transactionHash: Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' })),
  },
  { additionalProperties: false },
);
const ChainParams = Type.Object({ chain: Type.String() }, { additionalProperties: false });

export function controlMonitorRoutes(app: FastifyInstance, { chains, monitors, deliveries }: { chains: ChainsService; monitors: MonitorsService; deliveries: DeliveriesService }): void {
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;
  const chainOf = (request: { params: unknown }) => (request.params as { chain: string }).chain;

  app.get('/sim/chains/:chain', { schema: { ...hide, params: ChainParams }, handler: async (request) => chains.view(chainOf(request)) });

  app.post('/sim/chains/:chain/blocks', {
    schema: { ...hide, params: ChainParams, body: Type.Object({ count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })), logs: Type.Optional(Type.Array(Log, { maxItems: 1000 })) }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      const body = request.body as { count?: number; logs?: LogInput[] };
      return reply.code(201).send(await chains.mine(chainOf(request), body.count ?? 1, body.logs ?? []));
    },
  });

  app.post('/sim/chains/:chain/reorg', {
    schema: { ...hide, params: ChainParams, body: Type.Object({ depth: Type.Integer({ minimum: 1, maximum: 1000 }), logs: Type.Optional(Type.Array(Log, { maxItems: 1000 })) }, { additionalProperties: false }) },
    handler: async (request) => {
      const body = request.body as { depth: number; logs?: LogInput[] };
      return chains.reorg(chainOf(request), body.depth, body.logs ?? []);
    },
  });

  app.post('/sim/chains/scripts', {
    schema: { ...hide, body: Type.Object({ name: Type.String({ pattern: '^[a-z0-9-]{1,64}$' }) }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      return reply.code(201).send(await chains.runScript((request.body as { name: string }).name));
    },
  });

  app.post('/sim/accounts/:id/monitors', {
    schema: { ...hide, params: IdParams, body: CreateMonitorBody },
    handler: async (request, reply) => {
      const created = monitors.create({ kind: 'owner', accountId: idOf(request) }, request.body as CreateInput);
      return reply.code(created.replayed ? 200 : 201).send(created);
    },
  });

  app.get('/sim/monitors/:id', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => monitors.ownerDetail(idOf(request)),
  });

  app.post('/sim/accounts/:id/destinations', {
    schema: { ...hide, params: IdParams, body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 500 }), kind: Type.Optional(Type.String({ enum: ['https', 'chat'] })) }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      return reply.code(201).send(deliveries.createDestination(idOf(request), request.body as { url: string; kind?: 'https' | 'chat' }));
    },
  });

  app.get('/sim/destinations/:id', { schema: { ...hide, params: IdParams }, handler: async (request) => ({ destination: deliveries.destination(idOf(request)) }) });

  app.post('/sim/destinations/:id/verify', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => deliveries.verify(idOf(request)),
  });

  app.post('/sim/destinations/:id/confirm', {
    schema: { ...hide, params: IdParams, body: Type.Object({ code: Type.String({ pattern: '^[0-9]{8}$' }) }, { additionalProperties: false }) },
    handler: async (request) => ({ destination: deliveries.confirm(idOf(request), (request.body as { code: string }).code) }),
  });

  app.post('/sim/destinations/:id/revoke', { schema: { ...hide, params: IdParams }, handler: async (request) => ({ destination: deliveries.revoke(idOf(request)) }) });

  app.post('/sim/monitors/:id/subscriptions', {
    schema: { ...hide, params: IdParams, body: Type.Object({ destinationId: Uuid }, { additionalProperties: false }) },
    handler: async (request, reply) => reply.code(201).send({ subscription: deliveries.subscribe(idOf(request), (request.body as { destinationId: string }).destinationId) }),
  });

  app.delete('/sim/monitors/:id/subscriptions/:destinationId', {
    schema: { ...hide, params: Type.Object({ id: Uuid, destinationId: Uuid }, { additionalProperties: false }) },
    handler: async (request) => {
      const { id, destinationId } = request.params as { id: string; destinationId: string };
      return { ok: true, ...deliveries.unsubscribe(id, destinationId) };
    },
  });

  app.get('/sim/deliveries', {
    schema: { ...hide, querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false }) },
    handler: async (request) => deliveries.log((request.query as { limit?: number }).limit ?? 200),
  });
}
