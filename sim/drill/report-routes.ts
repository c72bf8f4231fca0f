import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '../http/schemas/json-schema.ts';
import { Uuid } from '../http/schemas/common.ts';
import type { ConductLog } from './log.ts';
import type { RunMoney } from './lost-answers.ts';
import { gradeConduct } from './report.ts';

/** Contract: GET /sim/report[?keyId=], the graded report of a client's conduct (docs/drill.md). */
const ReportQuery = Type.Object({ keyId: Type.Optional(Uuid) }, { additionalProperties: false });

export function reportRoutes(app: FastifyInstance, conduct: ConductLog, moneyOf: (runId: string) => RunMoney): void {
  app.get('/sim/report', {
    schema: { hide: true, tags: ['control'], querystring: ReportQuery },
    handler: async (request) => gradeConduct(conduct, moneyOf, (request.query as Static<typeof ReportQuery>).keyId),
  });
}

/** GET /sim/conduct?keyId=: one key's request lines as the rules see them (what the report's evidence is drawn from). */
const ConductQuery = Type.Object({ keyId: Uuid }, { additionalProperties: false });

export function conductRoutes(app: FastifyInstance, conduct: ConductLog): void {
  app.get('/sim/conduct', {
    schema: { hide: true, tags: ['control'], querystring: ConductQuery },
    handler: async (request) => {
      const { lines, dropped } = conduct.of((request.query as Static<typeof ConductQuery>).keyId);
      return { lines, dropped };
    },
  });
}
