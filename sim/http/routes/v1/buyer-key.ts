import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { KeysService } from '../../../domain/services.ts';
import { keyOf } from '../../plugins/auth.ts';
import { errorResponses, NoQuery } from '../../schemas/common.ts';

export function buyerKeyRoutes(app: FastifyInstance, { keys }: { keys: KeysService }): void {
  app.get('/v1/buyer/key', {
    config: { auth: 'key' },
    schema: {
      tags: ['keys'],
      operationId: 'getBuyerKey',
      summary: 'The calling API key (any valid key)',
      querystring: NoQuery,
      response: { 200: Type.Object({ key: Type.Ref('ApiKey') }), ...errorResponses(400, 401, 429) },
    },
    handler: async (request) => ({ key: keys.view(keyOf(request)) }),
  });
}
