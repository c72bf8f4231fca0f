import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { PlatformService } from '../../../domain/services.ts';
import { errorResponses, NoQuery } from '../../schemas/common.ts';

/**
 * GET /v1/capabilities. Spec part 4 shows neither its shape nor its scope; it
 * answers without a key like the public catalog (a key, when sent, must be
 * valid) and publishes the platform-wide queue bound in force (PUT /sim/platform-queue
 * changes it) beside the other limits.
 */
export function capabilitiesRoutes(app: FastifyInstance, { platform }: { platform: PlatformService }): void {
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
    handler: async () => platform.capabilities(),
  });
}
