import { Type } from './json-schema.ts';
import { AmountInput, DateTime, IdempotencyKey, Nullable, Uuid } from './common.ts';
import { RULE_EVENTS } from '../../domain/chains/index.ts';

/** Spec 4.10–4.12: monitor creation, rule objects and triggers, no additional properties anywhere. */
const Id = Type.String({ pattern: '^[a-z][a-z0-9-]{0,39}$' });
const AtomicMin = AmountInput;
const Addr = Type.String({ minLength: 1, maxLength: 100 });
const events = (type: keyof typeof RULE_EVENTS, max: number) =>
  Type.Optional(Type.Array(Type.String({ enum: RULE_EVENTS[type] }), { minItems: 1, maxItems: max, uniqueItems: true }));
const rule = (type: string, fields: Record<string, unknown>) =>
  Type.Object({ id: Id, type: Type.Literal(type), ...(fields as object) }, { additionalProperties: false });

/** A rule is chosen by its `type` (a discriminator), so a mistake is reported against that type's fields. */
export const MonitorRule = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [
  rule('erc20-transfer', { token: Addr, from: Type.Optional(Addr), to: Type.Optional(Addr), minimumAtomic: Type.Optional(AtomicMin) }),
  rule('erc20-approval', { token: Addr, owner: Addr, spender: Type.Optional(Addr) }),
  rule('authority-change', { contract: Addr, events: events('authority-change', 4) }),
  rule('wallet-token-flow', { wallet: Addr, tokens: Type.Array(Addr, { minItems: 1, maxItems: 8 }), direction: Type.String({ enum: ['in', 'out'] }) }),
  rule('pool-activity', {
    pool: Addr,
    dex: Type.String({ enum: ['dex-one-v2', 'dex-one-v3', 'dex-two'] }),
    events: events('pool-activity', 3),
    minimumAmount0Atomic: Type.Optional(AtomicMin),
    minimumAmount1Atomic: Type.Optional(AtomicMin),
  }),
  rule('governance-change', { contract: Addr, events: events('governance-change', 14) }),
  rule('control-change', { contract: Addr, events: events('control-change', 5) }),
  ],
});

export const MonitorTrigger = Type.Object(
  {
    id: Id,
    onRule: Id,
    action: Type.String({ enum: ['token-authority-check', 'sender-approvals-check'] }),
    lookbackBlocks: Type.Optional(Type.Integer({ minimum: 0, maximum: 1999 })),
    maximumRuns: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  },
  { additionalProperties: false },
);

export const CreateMonitorBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    chain: Type.String({ enum: ['ethereum', 'base', 'chainx'] }),
    rules: Type.Array(MonitorRule, { minItems: 1, maxItems: 8 }),
    durationSeconds: Type.Integer({ minimum: 60, maximum: 2_592_000 }),
    tickBudget: Type.Integer({ minimum: 1, maximum: 10_000 }),
    rpcBudget: Type.Integer({ minimum: 10, maximum: 100_000 }),
    idempotencyKey: IdempotencyKey,
    versionId: Type.Optional(Uuid),
    listingId: Type.Optional(Uuid),
    triggers: Type.Optional(Type.Array(MonitorTrigger, { maxItems: 4 })),
    windowBlocks: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })),
    maximumLogs: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    startBlock: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$' })),
    webhookUrl: Type.Optional(Type.String({ maxLength: 500 })),
    paymentProfile: Type.Optional(Type.String({ enum: ['none', 'sim', 'local_custody'] })),
    spendCapAtomic: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,77}$' })),
    consentHash: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$' })),
  },
  { additionalProperties: false },
);

export const Monitor = Type.Object(
  {
    id: Uuid,
    status: Type.String({ enum: ['active', 'paused', 'stopped', 'expired', 'exhausted'] }),
    name: Type.String(),
    versionId: Nullable(Uuid),
    chain: Type.String(),
    statusReason: Nullable(Type.String()),
    endsAt: DateTime,
    tickBudget: Type.Integer(),
    ticksUsed: Type.Integer(),
    rpcBudget: Type.Integer(),
    rpcUsed: Type.Integer(),
    webhook: Nullable(Type.Object({ url: Type.String(), signature: Type.String() })),
  },
  { additionalProperties: true, $id: 'Monitor' },
);

export const MonitorCreated = Type.Object({ monitor: Type.Ref('Monitor'), webhookSecret: Nullable(Type.String()), replayed: Type.Boolean() });

export const MonitorDetail = Type.Object({
  monitor: Type.Ref('Monitor'),
  windows: Type.Array(Type.Object({}, { additionalProperties: true })),
  missedWindows: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  events: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 200 }),
  retractedEvents: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  deliveries: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 200 }),
  subscriptions: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  deliveryLog: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
});

export const Notification = Type.Object(
  {
    id: Uuid,
    monitorId: Uuid,
    kind: Type.String(),
    title: Type.String(),
    body: Type.String(),
    createdAt: DateTime,
    event: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
    acknowledgedAt: Type.Optional(Nullable(DateTime)),
  },
  { $id: 'Notification' },
);
