import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';

/** Spec 9: the document describes itself too, as part 4's route table lists it. */
const OpenApiDocument = Type.Object({ openapi: Type.String() }, { additionalProperties: true, description: 'The OpenAPI 3.1 document.' });

export function openApiRoutes(app: FastifyInstance): void {
  app.get('/v1/openapi.json', {
    config: { auth: 'none' },
    schema: {
      tags: ['platform'],
      operationId: 'getOpenApiDocument',
      summary: 'This machine-readable description (OpenAPI 3.1); no key needed',
      response: { 200: OpenApiDocument },
    },
    handler: async () => app.openApiDocument(),
  });
}
