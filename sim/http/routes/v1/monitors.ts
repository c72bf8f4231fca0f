import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { CreateMonitorBody as CreateInput } from '../../../domain/chains/index.ts';
import type { MonitorsService } from '../../../domain/services.ts';
import { keyOf } from '../../plugins/auth.ts';
import { errorResponses, IdParams, NoQuery, STANDARD_ERRORS } from '../../schemas/common.ts';
import { CreateMonitorBody, MonitorCreated, MonitorDetail } from '../../schemas/monitor.ts';

/** Monitors and notifications (spec 4.10–4.13), ETH keys only. */
export function monitorRoutes(app: FastifyInstance, { monitors }: { monitors: MonitorsService }): void {
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

  app.get('/v1/monitors', {
    config: { auth: 'key', scope: 'monitors:read' },
    schema: { tags: ['monitors'], operationId: 'listMonitors', summary: "The account's monitors", querystring: NoQuery, response: { 200: Type.Object({ monitors: Type.Array(Type.Ref('Monitor'), { maxItems: 100 }) }), ...errorResponses(400, 401, 403, 429) } },
    handler: async (request) => ({ monitors: monitors.list(keyOf(request)) }),
  });

  app.post('/v1/monitors', {
    config: { auth: 'key', scope: 'monitors:write' },
    schema: { tags: ['monitors'], operationId: 'createMonitor', summary: 'Create a monitor (idempotent by idempotencyKey)', querystring: NoQuery, body: CreateMonitorBody, response: { 201: MonitorCreated, 200: MonitorCreated, ...errorResponses(...STANDARD_ERRORS) } },
    handler: async (request, reply) => {
      const created = monitors.create({ kind: 'key', key: keyOf(request) }, request.body as CreateInput);
      return reply.code(created.replayed ? 200 : 201).send(created);
    },
  });

  app.get('/v1/monitors/:id', {
    config: { auth: 'key', scope: 'monitors:read' },
    schema: { tags: ['monitors'], operationId: 'getMonitor', summary: 'A monitor with its windows, events and deliveries', params: IdParams, querystring: NoQuery, response: { 200: MonitorDetail, ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => monitors.detail(keyOf(request), idOf(request)),
  });

  app.post('/v1/monitors/:id/stop', {
    config: { auth: 'key', scope: 'monitors:write' },
    schema: { tags: ['monitors'], operationId: 'stopMonitor', summary: 'Stop a monitor', params: IdParams, querystring: NoQuery, response: { 200: Type.Object({ monitor: Type.Ref('Monitor') }), ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => ({ monitor: monitors.stop(keyOf(request), idOf(request)) }),
  });

  app.get('/v1/notifications', {
    config: { auth: 'key', scope: 'monitors:read' },
    schema: { tags: ['monitors'], operationId: 'listNotifications', summary: "The account's notifications", querystring: NoQuery, response: { 200: Type.Object({ notifications: Type.Array(Type.Ref('Notification'), { maxItems: 200 }) }), ...errorResponses(400, 401, 403, 429) } },
    handler: async (request) => ({ notifications: monitors.notifications(keyOf(request)) }),
  });

  app.post('/v1/notifications/:id/ack', {
    config: { auth: 'key', scope: 'monitors:write' },
    schema: { tags: ['monitors'], operationId: 'acknowledgeNotification', summary: 'Acknowledge a notification', params: IdParams, querystring: NoQuery, response: { 200: Type.Object({ notification: Type.Ref('Notification') }), ...errorResponses(400, 401, 403, 404, 429) } },
    handler: async (request) => ({ notification: monitors.acknowledge(keyOf(request), idOf(request)) }),
  });
}
