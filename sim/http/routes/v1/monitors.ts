import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import { assertMonitorKey, createMonitor, listMonitors, monitorDetail, monitorView, ownMonitor, stopMonitor, type CreateMonitorBody as CreateInput } from '../../../domain/monitors.ts';
import { acknowledge, notificationsOf } from '../../../domain/notifications.ts';
import type { Simulator } from '../../../simulator.ts';
import { keyOf } from '../../plugins/auth.ts';
import { errorResponses, IdParams, NoQuery, STANDARD_ERRORS } from '../../schemas/common.ts';
import { CreateMonitorBody, MonitorCreated, MonitorDetail } from '../../schemas/monitor.ts';

/** Monitors and notifications (spec 4.10–4.13), ETH keys only. */
export function monitorRoutes(app: FastifyInstance, sim: Simulator): void {
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

  app.get('/v1/monitors', {
    config: { auth: 'key', scope: 'monitors:read' },
    schema: { tags: ['monitors'], operationId: 'listMonitors', summary: "The account's monitors", querystring: NoQuery, response: { 200: Type.Object({ monitors: Type.Array(Type.Ref('Monitor'), { maxItems: 100 }) }), ...errorResponses(400, 401, 403, 429) } },
    handler: async (request) => {
      const key = keyOf(request);
      assertMonitorKey(key);
      return { monitors: listMonitors(sim.deps, key.accountId) };
    },
  });

  app.post('/v1/monitors', {
    config: { auth: 'key', scope: 'monitors:write' },
    schema: { tags: ['monitors'], operationId: 'createMonitor', summary: 'Create a monitor (idempotent by idempotencyKey)', querystring: NoQuery, body: CreateMonitorBody, response: { 201: MonitorCreated, 200: MonitorCreated, ...errorResponses(...STANDARD_ERRORS) } },
    handler: async (request, reply) => {
      const key = keyOf(request);
      assertMonitorKey(key);
      const created = sim.createMonitorLimited(key.accountId, () => createMonitor(sim.deps, { kind: 'key', key }, request.body as CreateInput));
      return reply.code(created.replayed ? 200 : 201).send({ monitor: monitorView(created.monitor), webhookSecret: created.webhookSecret, replayed: created.replayed });
    },
  });

  app.get('/v1/monitors/:id', {
    config: { auth: 'key', scope: 'monitors:read' },
    schema: { tags: ['monitors'], operationId: 'getMonitor', summary: 'A monitor with its windows, events and deliveries', params: IdParams, querystring: NoQuery, response: { 200: MonitorDetail, ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => monitorDetail(sim.deps, ownMonitor(sim.deps, keyOf(request), idOf(request))),
  });

  app.post('/v1/monitors/:id/stop', {
    config: { auth: 'key', scope: 'monitors:write' },
    schema: { tags: ['monitors'], operationId: 'stopMonitor', summary: 'Stop a monitor', params: IdParams, querystring: NoQuery, response: { 200: Type.Object({ monitor: Type.Ref('Monitor') }), ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => ({ monitor: monitorView(stopMonitor(sim.deps, ownMonitor(sim.deps, keyOf(request), idOf(request)))) }),
  });

  app.get('/v1/notifications', {
    config: { auth: 'key', scope: 'monitors:read' },
    schema: { tags: ['monitors'], operationId: 'listNotifications', summary: "The account's notifications", querystring: NoQuery, response: { 200: Type.Object({ notifications: Type.Array(Type.Ref('Notification'), { maxItems: 200 }) }), ...errorResponses(400, 401, 403, 429) } },
    handler: async (request) => {
      const key = keyOf(request);
      assertMonitorKey(key);
      return { notifications: notificationsOf(sim.deps, key.accountId) };
    },
  });

  app.post('/v1/notifications/:id/ack', {
    config: { auth: 'key', scope: 'monitors:write' },
    schema: { tags: ['monitors'], operationId: 'acknowledgeNotification', summary: 'Acknowledge a notification', params: IdParams, querystring: NoQuery, response: { 200: Type.Object({ notification: Type.Ref('Notification') }), ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => {
      const key = keyOf(request);
      assertMonitorKey(key);
      return { notification: acknowledge(sim.deps, key, idOf(request)) };
    },
  });
}
