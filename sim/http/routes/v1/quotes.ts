import type { FastifyInstance } from 'fastify';
import { Type } from '../../schemas/json-schema.ts';
import type { AcceptBody as AcceptInput } from '../../../domain/quotes/index.ts';
import type { Rail } from '../../../domain/catalog/index.ts';
import type { CreateQuoteBody } from '../../../domain/quotes/index.ts';
import type { QuotesService } from '../../../domain/services.ts';
import { noteAcceptance } from '../../plugins/answer-facts.ts';
import { keyOf } from '../../plugins/auth.ts';
import { errorResponses, IdParams, NoQuery, STANDARD_ERRORS } from '../../schemas/common.ts';
import { AcceptBody, Acceptance, QuoteBody, SolanaQuoteBody } from '../../schemas/quote.ts';

/** Quote, accept and billing routes of the three rails (spec 4, 4.3, 4.4); the rehearsal rail mirrors custody. */
const RAILS: Array<{ rail: Rail; prefix: string; tag: string; name: string }> = [
  { rail: 'solana-custody', prefix: '/v1/solana-custody', tag: 'solana-custody', name: 'SolanaCustody' },
  { rail: 'custody', prefix: '/v1/custody', tag: 'local-custody', name: 'LocalCustody' },
  { rail: 'rehearsal', prefix: '/v1/rehearsal', tag: 'rehearsal', name: 'Rehearsal' },
];

export function quoteRoutes(app: FastifyInstance, { quotes }: { quotes: QuotesService }): void {
  for (const { rail, prefix, tag, name } of RAILS) {
    const rehearsal = rail === 'rehearsal';
    app.post(`${prefix}/quotes`, {
      config: { auth: 'key', scope: 'quotes:write', rehearsal, quoteCreation: true },
      schema: {
        tags: [tag],
        operationId: `create${name}Quote`,
        summary: `Quote a run on the ${tag} rail`,
        description: 'Never retried automatically: on a lost response, create another quote.',
        querystring: NoQuery,
        body: rail === 'solana-custody' ? SolanaQuoteBody : QuoteBody,
        response: { 201: Type.Object({ quote: Type.Ref('Quote') }), ...errorResponses(...STANDARD_ERRORS) },
      },
      handler: async (request, reply) => {
        return reply.code(201).send({ quote: quotes.create(keyOf(request), rail, request.body as CreateQuoteBody) });
      },
    });

    app.post(`${prefix}/quotes/:id/accept`, {
      config: { auth: 'key', scope: 'quotes:write', rehearsal },
      schema: {
        tags: [tag],
        operationId: `accept${name}Quote`,
        summary: `Accept a quote and start its run (${tag} rail)`,
        params: IdParams,
        querystring: NoQuery,
        body: AcceptBody,
        response: { 202: Acceptance, ...errorResponses(...STANDARD_ERRORS) },
      },
      handler: async (request, reply) => {
        const acceptance = quotes.accept(keyOf(request), rail, (request.params as { id: string }).id, request.body as AcceptInput);
        noteAcceptance(request, String(acceptance.run.id), acceptance.reservation.maximumAtomic);
        return reply.code(202).send(acceptance);
      },
    });

    app.get(`${prefix}/runs/:id/billing`, {
      config: { auth: 'key', scope: 'billing:read', rehearsal },
      schema: {
        tags: [tag],
        operationId: `get${name}Billing`,
        summary: `A run's reservation and settlement (${tag} rail)`,
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Ref('Billing'), ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      handler: async (request) => quotes.billing(keyOf(request), rail, (request.params as { id: string }).id),
    });
  }
}
