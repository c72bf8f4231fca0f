import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import { ASSETS } from '../../../domain/assets.ts';
import { platformQueue } from '../../../domain/platform-queue.ts';
import { LIMITS } from '../../../domain/rate-limits.ts';
import type { Simulator } from '../../../simulator.ts';
import { errorResponses, NoQuery } from '../../schemas/common.ts';

/**
 * GET /v1/capabilities. Spec part 4 shows neither its shape nor its scope; it
 * answers without a key like the public catalog (a key, when sent, must be
 * valid) and publishes the platform-wide queue bound in force (PUT /sim/platform-queue
 * changes it) beside the other limits.
 */
export function capabilitiesRoutes(app: FastifyInstance, sim: Simulator): void {
  app.get('/v1/capabilities', {
    config: { auth: 'optional' },
    schema: {
      tags: ['platform'],
      operationId: 'getCapabilities',
      summary: 'Payment profiles, limits and the platform-wide queue bound',
      querystring: NoQuery,
      response: {
        200: Type.Object({
          environment: Type.String(),
          apiVersion: Type.String(),
          queue: Type.Object({ platformQueueBound: Type.Integer(), queuedRuns: Type.Integer() }),
          limits: Type.Object({}, { additionalProperties: true }),
          profiles: Type.Array(Type.Object({ profile: Type.String(), assetId: Type.String(), currencyLabel: Type.String(), rail: Type.String(), available: Type.Boolean() })),
        }),
        ...errorResponses(400, 401, 403, 429),
      },
    },
    handler: async () => ({
      environment: sim.deps.env,
      apiVersion: '1.2.0-local',
      queue: platformQueue(sim.deps),
      limits: {
        requestBodyBytes: 262144,
        requestsPerClientAddressPerMinute: LIMITS.perClientAddressPerMinute,
        quoteCreationsPerAddressPerMinute: LIMITS.quoteCreationsPerAddressPerMinute,
        monitorCreationsPerMinute: LIMITS.monitorCreationsPerMinute,
        activeRunsPerAccount: LIMITS.activeRunsPerAccount,
        runsPerAccountPer24h: LIMITS.runsPerAccountPer24h,
        quoteLifetimeSeconds: 240,
        rateLimitsEnforced: sim.limitsOn,
      },
      profiles: Object.values(ASSETS).map((a) => ({
        profile: a.profile,
        assetId: a.assetId,
        currencyLabel: a.currencyLabel,
        rail: a.rail,
        available: !(a.profile === 'sim' && sim.deps.env === 'production'),
      })),
    }),
  });
}
