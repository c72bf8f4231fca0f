import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '../../schemas/json-schema.ts';
import { Uuid } from '../../schemas/common.ts';
import { gradeConduct, type ConductLog } from '../../../domain/conduct/index.ts';

/** Contract: GET /sim/report[?keyId=], the graded report of a client's conduct (docs/rehearsal.md). */
const ReportQuery = Type.Object({ keyId: Type.Optional(Uuid) }, { additionalProperties: false });

export function reportRoutes(app: FastifyInstance, conduct: ConductLog): void {
  app.get('/sim/report', {
    schema: { hide: true, tags: ['control'], querystring: ReportQuery },
    handler: async (request) => gradeConduct(conduct, (request.query as Static<typeof ReportQuery>).keyId),
  });
}

/** GET /sim/conduct?keyId=: one key's request lines as the rules see them (what the report's evidence is drawn from). */
const ConductQuery = Type.Object({ keyId: Uuid }, { additionalProperties: false });

export function conductRoutes(app: FastifyInstance, conduct: ConductLog): void {
  app.get('/sim/conduct', {
    schema: { hide: true, tags: ['control'], querystring: ConductQuery },
    handler: async (request) => ({ lines: conduct.linesOf((request.query as Static<typeof ConductQuery>).keyId) }),
  });
}
