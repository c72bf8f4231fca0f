import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import { assertChain, chainView, mineBlocks, reorg, type LogInput } from '../../../domain/chains.ts';
import { transact } from '../../../domain/context.ts';
import { deliveryView } from '../../../domain/deliveries.ts';
import { confirmChatCode, createDestination, destinationView, requireDestination, revokeDestination, subscribe, unsubscribe, verifyDestination } from '../../../domain/destinations.ts';
import { retractForReorg, wakeMonitors } from '../../../domain/monitor-engine.ts';
import { createMonitor, monitorDetail, monitorView, type CreateMonitorBody as CreateInput } from '../../../domain/monitors.ts';
import { newestRows } from '../../../domain/newest-rows.ts';
import { errors } from '../../../domain/errors.ts';
import { scheduleChainScript } from '../../../domain/chain-scripts.ts';
import { readChainScript } from '../../../store/chain-script-file.ts';
import type { Simulator } from '../../../simulator.ts';
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

export function controlMonitorRoutes(app: FastifyInstance, sim: Simulator): void {
  const deps = sim.deps;
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;
  const chainOf = (request: { params: unknown }) => {
    const { chain } = request.params as { chain: string };
    assertChain(chain);
    return chain;
  };

  app.get('/sim/chains/:chain', { schema: { ...hide, params: ChainParams }, handler: async (request) => chainView(deps, chainOf(request)) });

  app.post('/sim/chains/:chain/blocks', {
    schema: { ...hide, params: ChainParams, body: Type.Object({ count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })), logs: Type.Optional(Type.Array(Log, { maxItems: 1000 })) }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      const chain = chainOf(request);
      const body = request.body as { count?: number; logs?: LogInput[] };
      const mined = transact(deps, (tx) => {
        const result = mineBlocks(deps, tx, chain, body.count ?? 1, body.logs ?? []);
        wakeMonitors(deps, tx, chain);
        return result;
      });
      // Monitors whose window just completed look at once.
      await sim.catchUp();
      return reply.code(201).send({ blocks: mined.blocks, logs: mined.logs.map((l) => ({ blockNumber: l.blockNumber, logIndex: l.logIndex, transactionHash: l.transactionHash, address: l.address, event: l.event })) });
    },
  });

  app.post('/sim/chains/:chain/reorg', {
    schema: { ...hide, params: ChainParams, body: Type.Object({ depth: Type.Integer({ minimum: 1, maximum: 1000 }), logs: Type.Optional(Type.Array(Log, { maxItems: 1000 })) }, { additionalProperties: false }) },
    handler: async (request) => {
      const chain = chainOf(request);
      const body = request.body as { depth: number; logs?: LogInput[] };
      const result = transact(deps, (tx) => {
        const replaced = reorg(deps, tx, chain, body.depth, body.logs ?? []);
        retractForReorg(deps, tx, chain, replaced.removed, BigInt(replaced.blocks[0].number));
        return replaced;
      });
      await sim.catchUp();
      return { removed: result.removed.map((l) => ({ blockNumber: l.blockNumber, logIndex: l.logIndex, transactionHash: l.transactionHash, address: l.address, event: l.event })), blocks: result.blocks };
    },
  });

  app.post('/sim/chains/scripts', {
    schema: { ...hide, body: Type.Object({ name: Type.String({ pattern: '^[a-z0-9-]{1,64}$' }) }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      const { name } = request.body as { name: string };
      return reply.code(201).send(scheduleChainScript(deps, name, await readChainScript(name)));
    },
  });

  app.post('/sim/accounts/:id/monitors', {
    schema: { ...hide, params: IdParams, body: CreateMonitorBody },
    handler: async (request, reply) => {
      const accountId = idOf(request);
      const created = sim.createMonitorLimited(accountId, () => createMonitor(deps, { kind: 'owner', accountId }, request.body as CreateInput));
      return reply.code(created.replayed ? 200 : 201).send({ monitor: monitorView(created.monitor), webhookSecret: created.webhookSecret, replayed: created.replayed });
    },
  });

  app.get('/sim/monitors/:id', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => {
      const m = deps.store.get('monitors', idOf(request));
      if (!m) throw errors.notFound('This monitor was not found.');
      return monitorDetail(deps, m);
    },
  });

  app.post('/sim/accounts/:id/destinations', {
    schema: { ...hide, params: IdParams, body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 500 }), kind: Type.Optional(Type.String({ enum: ['https', 'chat'] })) }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      const { destination, signingSecret } = createDestination(deps, idOf(request), request.body as { url: string; kind?: 'https' | 'chat' });
      return reply.code(201).send({ destination: destinationView(destination), signingSecret });
    },
  });

  app.get('/sim/destinations/:id', { schema: { ...hide, params: IdParams }, handler: async (request) => ({ destination: destinationView(requireDestination(deps, idOf(request))) }) });

  app.post('/sim/destinations/:id/verify', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => {
      const { destination, chatCode } = await verifyDestination(deps, sim.send, idOf(request));
      return { destination: destinationView(destination), ...(chatCode ? { chatCode } : {}) };
    },
  });

  app.post('/sim/destinations/:id/confirm', {
    schema: { ...hide, params: IdParams, body: Type.Object({ code: Type.String({ pattern: '^[0-9]{8}$' }) }, { additionalProperties: false }) },
    handler: async (request) => ({ destination: destinationView(confirmChatCode(deps, idOf(request), (request.body as { code: string }).code)) }),
  });

  app.post('/sim/destinations/:id/revoke', { schema: { ...hide, params: IdParams }, handler: async (request) => ({ destination: destinationView(revokeDestination(deps, idOf(request))) }) });

  app.post('/sim/monitors/:id/subscriptions', {
    schema: { ...hide, params: IdParams, body: Type.Object({ destinationId: Uuid }, { additionalProperties: false }) },
    handler: async (request, reply) => reply.code(201).send({ subscription: subscribe(deps, idOf(request), (request.body as { destinationId: string }).destinationId) }),
  });

  app.delete('/sim/monitors/:id/subscriptions/:destinationId', {
    schema: { ...hide, params: Type.Object({ id: Uuid, destinationId: Uuid }, { additionalProperties: false }) },
    handler: async (request) => {
      const { id, destinationId } = request.params as { id: string; destinationId: string };
      return { ok: true, ...unsubscribe(deps, id, destinationId) };
    },
  });

  app.get('/sim/deliveries', {
    schema: { ...hide, querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false }) },
    handler: async (request) => {
      const limit = (request.query as { limit?: number }).limit ?? 200;
      // Deliveries are archived: the newest `limit` are read back, and the log holds their attempts (docs/decisions.md).
      const deliveries = newestRows(deps.store, 'deliveries', null, limit).reverse();
      const attempts = deliveries.flatMap((d) => d.attempts.map((a) => ({ deliveryId: d.id, purpose: d.purpose, monitorId: d.monitorId, destinationId: d.destinationId, type: d.type, time: a.at, attempt: a.attempt, outcome: a.outcome, status: a.httpStatus, error: a.error })));
      attempts.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
      return { attempts: attempts.slice(-limit), deliveries: deliveries.map(deliveryView) };
    },
  });
}
