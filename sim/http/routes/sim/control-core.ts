import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '../../schemas/json-schema.ts';
import type { CreateKeyInput } from '../../../domain/keys/index.ts';
import type { Profile } from '../../../domain/catalog/index.ts';
import type { KeysService, LedgerService, PlatformService } from '../../../domain/services.ts';
import type { SimulatorControl } from '../../../simulator.ts';
import { AmountInput, IdParams, Uuid } from '../../schemas/common.ts';
import { ProfileSchema, Scope } from '../../schemas/key.ts';
import { installSnapshotBody, SNAPSHOT_BODY_LIMIT_BYTES } from '../../plugins/snapshot-body.ts';

/** Control API, contract section 2: reset, clock, accounts, deposits, keys, faults, the request log. */
const hide = { hide: true, tags: ['control'] };

const AdvanceBody = Type.Union([
  Type.Object({ seconds: Type.Number({ minimum: 0, maximum: 31_536_000 }) }, { additionalProperties: false }),
  Type.Object({ to: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
  Type.Object({ next: Type.Literal(true) }, { additionalProperties: false }),
]);

const CreateKeyBody = Type.Object(
  {
    profile: ProfileSchema,
    spendLimitAtomic: AmountInput,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 7 })),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })),
    rateLimitPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 600 })),
    listingIds: Type.Optional(Type.Union([Type.Array(Uuid, { maxItems: 50 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export function controlCoreRoutes(app: FastifyInstance, { control, ledger, keys, platform }: { control: SimulatorControl; ledger: LedgerService; keys: KeysService; platform: PlatformService }): void {
  app.post('/sim/reset', {
    schema: { ...hide, body: Type.Optional(Type.Object({ seed: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Integer()])) }, { additionalProperties: false })) },
    handler: async (request) => {
      await control.reset((request.body as { seed?: string | number } | undefined)?.seed);
      return { ok: true };
    },
  });

  app.get('/sim/clock', { schema: hide, handler: async () => control.clockView() });

  app.post('/sim/clock/advance', {
    schema: { ...hide, body: AdvanceBody },
    handler: async (request) => {
      const body = request.body as Static<typeof AdvanceBody>;
      return control.advanceClock('to' in body ? { to: body.to } : 'seconds' in body ? { seconds: body.seconds } : { next: true });
    },
  });

  app.post('/sim/accounts', {
    schema: {
      ...hide,
      body: Type.Object({ type: Type.String({ enum: ['solana', 'evm'] }), label: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
    },
    handler: async (request, reply) => {
      return reply.code(201).send({ account: ledger.createAccount(request.body as { type: 'solana' | 'evm'; label?: string }) });
    },
  });

  app.get('/sim/accounts', {
    schema: hide,
    handler: async () => ({ accounts: ledger.accounts() }),
  });

  app.get('/sim/accounts/:id', { schema: { ...hide, params: IdParams }, handler: async (request) => ledger.account((request.params as { id: string }).id) });

  app.get('/sim/accounts/:id/ledger', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => ({ entries: ledger.history((request.params as { id: string }).id) }),
  });

  app.get('/sim/accounts/:id/keys', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => ({ keys: keys.ofAccount((request.params as { id: string }).id) }),
  });

  app.post('/sim/accounts/:id/deposits', {
    schema: { ...hide, params: IdParams, body: Type.Object({ profile: ProfileSchema, amountAtomic: AmountInput }, { additionalProperties: false }) },
    handler: async (request, reply) => {
      const { profile, amountAtomic } = request.body as { profile: Profile; amountAtomic: string };
      return reply.code(201).send({ balance: ledger.deposit((request.params as { id: string }).id, profile, amountAtomic) });
    },
  });

  app.post('/sim/accounts/:id/keys', {
    schema: { ...hide, params: IdParams, body: CreateKeyBody },
    handler: async (request, reply) => {
      return reply.code(201).send(keys.create((request.params as { id: string }).id, request.body as CreateKeyInput));
    },
  });

  app.post('/sim/keys/:id/revoke', {
    schema: { ...hide, params: IdParams },
    handler: async (request) => ({ key: keys.revoke((request.params as { id: string }).id) }),
  });

  app.get('/sim/requests', {
    schema: { ...hide, querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })) }, { additionalProperties: false }) },
    handler: async (request) => ({ requests: control.recentRequests((request.query as { limit?: number }).limit) }),
  });

  app.get('/sim/snapshot', {
    schema: hide,
    // Sent as the chunks are, without another serialization of the whole document.
    handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(Readable.from(control.exportSnapshot())),
  });

  // The store's layout (docs/decisions.md, store layout), and a checkpoint on demand: what runs by
  // itself every 50,000 journal lines and at shutdown.
  app.get('/sim/store', { schema: hide, handler: async () => ({ store: control.storeFigures() }) });
  app.post('/sim/store/checkpoint', {
    schema: hide,
    handler: async () => ({ store: await control.checkpoint() }),
  });

  // In a context of its own: its body is parsed as it streams, within the import's bounds (snapshot-body.ts).
  void app.register(async (imports) => {
    installSnapshotBody(imports);
    imports.put('/sim/snapshot', {
      bodyLimit: SNAPSHOT_BODY_LIMIT_BYTES,
      schema: { ...hide, body: Type.Object({ format: Type.Literal('understudy-snapshot'), version: Type.Literal(1), clock: Type.Object({ now: Type.String({ format: 'date-time' }) }, { additionalProperties: true }), store: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: false }) },
      handler: async (request) => {
        await control.importSnapshot(request.body as never);
        return { ok: true, now: control.clockView().now };
      },
    });
  });

  app.get('/sim/faults', { schema: hide, handler: async () => ({ faults: platform.faults() }) });

  app.put('/sim/faults', {
    schema: {
      ...hide,
      body: Type.Object(
        {
          paymentsDisabled: Type.Optional(Type.Array(ProfileSchema, { maxItems: 4 })),
          researchProviderUnavailable: Type.Optional(Type.Boolean()),
          exportStorageUnavailable: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    },
    handler: async (request) => ({ faults: platform.setFaults(request.body as never) }),
  });
}
