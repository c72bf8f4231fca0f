import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { CatalogQuery } from '../../../domain/catalog/index.ts';
import type { Rail } from '../../../domain/catalog/index.ts';
import type { CatalogService } from '../../../domain/services.ts';
import { keyOf } from '../../plugins/auth.ts';
import { errorResponses, NoQuery } from '../../schemas/common.ts';
import { AgentPage, AgentQuery, ListingParams, RailCatalog, SolanaCatalogQuery } from '../../schemas/catalog.ts';

export function catalogRoutes(app: FastifyInstance, { catalog }: { catalog: CatalogService }): void {
  app.get('/v1/public/agents', {
    config: { auth: 'optional', scope: 'catalog:read' },
    schema: { tags: ['catalog'], operationId: 'listAgents', summary: 'Search the public agent catalog', querystring: AgentQuery, response: { 200: AgentPage, ...errorResponses(400, 401, 403, 429) } },
    handler: async (request) => catalog.search(request.query as CatalogQuery),
  });

  app.get('/v1/public/agents/:listingId', {
    config: { auth: 'optional', scope: 'catalog:read' },
    schema: {
      tags: ['catalog'],
      operationId: 'getAgent',
      summary: 'One public agent listing in detail',
      params: ListingParams,
      querystring: NoQuery,
      response: { 200: Type.Object({ agent: Type.Ref('AgentDetail') }), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (request) => ({ agent: catalog.agent((request.params as { listingId: string }).listingId) }),
  });

  const rails: Array<{ rail: Rail; path: string; operationId: string; tag: string; query: typeof NoQuery | typeof SolanaCatalogQuery }> = [
    { rail: 'solana-custody', path: '/v1/solana-custody/catalog', operationId: 'getSolanaCustodyCatalog', tag: 'solana-custody', query: SolanaCatalogQuery },
    { rail: 'custody', path: '/v1/custody/catalog', operationId: 'getLocalCustodyCatalog', tag: 'local-custody', query: NoQuery },
    { rail: 'rehearsal', path: '/v1/rehearsal/catalog', operationId: 'getRehearsalCatalog', tag: 'rehearsal', query: NoQuery },
  ];
  for (const { rail, path, operationId, tag, query } of rails) {
    app.get(path, {
      config: { auth: 'key', scope: 'catalog:read', rehearsal: rail === 'rehearsal' },
      schema: { tags: [tag], operationId, summary: `The listings this key can buy on the ${tag} rail`, querystring: query, response: { 200: RailCatalog, ...errorResponses(400, 401, 403, 429, 503) } },
      handler: async (request) => catalog.forKey(keyOf(request), rail, (request.query as { assetId?: string }).assetId),
    });
  }
}
