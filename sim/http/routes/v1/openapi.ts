import type { FastifyInstance } from 'fastify';

export function openApiRoutes(app: FastifyInstance): void {
  app.get('/v1/openapi.json', {
    config: { auth: 'none' },
    schema: { hide: true },
    handler: async () => app.openApiDocument(),
  });
}
