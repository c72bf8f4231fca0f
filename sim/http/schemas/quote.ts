import { Type } from './json-schema.ts';
import { Amount, ContractHash, DateTime, IdempotencyKey, Nullable, Uuid } from './common.ts';

/** Spec 4.3: a UUID with version digit 1–8 and variant 8, 9, a or b; the all-zero and all-f UUIDs too. */
export const LISTING_ID_PATTERN =
  '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

const quoteBodyFields = {
  listingId: Type.String({ pattern: LISTING_ID_PATTERN }),
  input: Type.Object({}, { additionalProperties: true }),
  resultPolicy: Type.Optional(Type.String({ enum: ['complete_only', 'canonical_metadata'] })),
};

export const SolanaQuoteBody = Type.Object({ ...quoteBodyFields, assetId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });
export const QuoteBody = Type.Object(quoteBodyFields, { additionalProperties: false });

export const Quote = Type.Object(
  {
    id: Uuid,
    contractHash: ContractHash,
    maximumBuyerDebitAtomic: Amount,
    expiresAt: DateTime,
    asset: Type.Object({ namespace: Type.String(), cluster: Type.String(), kind: Type.String(), decimals: Type.Integer() }),
    currencyLabel: Type.String(),
    grossCreatorFeeAtomic: Amount,
    platformFeeAtomic: Amount,
    creatorCreditAtomic: Amount,
    feeBps: Type.Integer(),
    maxExecutionChargeAtomic: Amount,
    unitCosts: Type.Object({}, { additionalProperties: true }),
    resultPolicy: Type.String(),
    resultContract: Nullable(Type.String()),
    modelExecution: Nullable(Type.Object({ costCapAtomic: Amount, rateAtomic: Amount })),
    input: Type.Object({}, { additionalProperties: true }),
    agentKind: Type.String(),
    priceRevision: Type.Integer(),
    notice: Type.String(),
  },
  { additionalProperties: true, $id: 'Quote' },
);

export const AcceptBody = Type.Object({ acceptedContractHash: ContractHash, idempotencyKey: IdempotencyKey }, { additionalProperties: false });

/** Spec 9: the published run status enum omits partial, which production runs can still return. */
export const PUBLISHED_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export const Run = Type.Object(
  {
    id: Uuid,
    status: Type.String({ enum: PUBLISHED_RUN_STATUSES }),
    versionId: Type.Optional(Uuid),
    input: Type.Optional(Type.Object({}, { additionalProperties: true })),
    output: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
    error: Type.Optional(Type.Unknown()),
    mode: Type.Optional(Type.String()),
    attempt: Type.Optional(Type.Integer()),
    rpcUsed: Type.Optional(Type.Integer()),
    deadlineAt: Type.Optional(Nullable(DateTime)),
    createdAt: Type.Optional(DateTime),
    updatedAt: Type.Optional(DateTime),
  },
  { additionalProperties: true, $id: 'Run' },
);

export const RunEvent = Type.Object({ id: Uuid, step: Type.String(), message: Type.String(), createdAt: DateTime }, { $id: 'RunEvent' });

export const Acceptance = Type.Object({
  run: Type.Ref('Run'),
  reservation: Type.Object({ id: Uuid, quoteId: Uuid, maximumAtomic: Amount }),
  notice: Type.String(),
});

export const Billing = Type.Object(
  {
    runId: Uuid,
    quoteId: Uuid,
    reservationId: Uuid,
    status: Type.String({ enum: ['reserved', 'pending', 'settled'] }),
    settlement: Nullable(
      Type.Object(
        {
          outcome: Type.String({ enum: ['succeeded', 'partial', 'failed', 'cancelled', 'expired'] }),
          chargedAtomic: Amount,
          creatorFeeAtomic: Amount,
          platformFeeAtomic: Amount,
          executionChargeAtomic: Amount,
        },
        { additionalProperties: true },
      ),
    ),
    pendingReason: Nullable(Type.String()),
    authorizedRpcCalls: Type.Integer(),
    reconciledRpcCalls: Type.Integer(),
    unresolvedRpcCalls: Type.Integer(),
    modelCost: Nullable(Type.Object({}, { additionalProperties: true })),
    notice: Type.String(),
  },
  { additionalProperties: true, $id: 'Billing' },
);

export const Receipt = Type.Object(
  {
    quote: Type.Object({}, { additionalProperties: true }),
    feeSplit: Type.Object({}, { additionalProperties: true }),
    settlement: Type.Object({}, { additionalProperties: true }),
    payment: Type.Object({ assetId: Type.String(), currencyLabel: Type.String() }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

/** Spec 2.12: the export's header names the stored artifact it was read from. */
const ARTIFACT_ID = { 'X-Service-Artifact-Id': { type: 'string', format: 'uuid', description: 'The stored artifact this export is.' } };

export const ExportDoc = Type.Object(
  { run: Type.Ref('Run'), version: Type.Object({}, { additionalProperties: true }), events: Type.Array(Type.Ref('RunEvent')) },
  { headers: ARTIFACT_ID },
);
