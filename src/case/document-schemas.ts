/**
 * The fields the case kit reads from a customer's documents, as JSON Schema,
 * in the spec's words: the quote (2.7), the run (2.8), its events (2.9), the
 * billing and its settlement (2.11), the receipt and the export (2.12), the
 * run read (2.17). Only what the kit uses is constrained; every object allows
 * more fields, as the spec does. `$comment` holds the part of the spec a
 * field's rule comes from, so a refusal can cite it.
 */
type Schema = Record<string, unknown>;

const uuid = { type: 'string', format: 'uuid', $comment: 'spec 2.1' };
const dateTime = { type: 'string', format: 'date-time', $comment: 'spec 2.1' };
const amount = { type: 'string', pattern: '^(0|[1-9][0-9]*)$', $comment: 'spec 2.1' };
const count = { type: 'integer', minimum: 0 };
const text = { type: 'string' };
const object = (properties: Record<string, Schema>, required: string[], $comment: string): Schema => ({ type: 'object', properties, required, $comment });
/** An object or null (one schema rather than anyOf, so a refusal names the object's own field). */
const orNull = (schema: Schema): Schema => ({ ...schema, type: ['object', 'null'] });

/** The run input (spec 4.3): named strings; a research workflow's named strings sit in `values`. */
const input = {
  type: 'object',
  properties: { values: { type: 'object', additionalProperties: text, $comment: 'spec 4.3' } },
  additionalProperties: text,
  $comment: 'spec 4.3',
};

const quoteSchema = object(
  {
    id: uuid,
    contractHash: { type: 'string', pattern: '^[a-f0-9]{64}$', $comment: 'spec 2.1' },
    maximumBuyerDebitAtomic: amount,
    grossCreatorFeeAtomic: amount,
    maxExecutionChargeAtomic: amount,
    unitCosts: object({ rpcCallAtomic: amount }, [], 'spec 2.7'),
    listingId: uuid,
    versionId: uuid,
    assetId: text,
    input,
    resultPolicy: { enum: ['complete_only', 'canonical_metadata'], $comment: 'spec 3.4' },
    priceRevision: count,
    createdAt: dateTime,
  },
  ['id', 'contractHash', 'maximumBuyerDebitAtomic'],
  'spec 2.7',
);

const runSchema = object(
  {
    id: uuid,
    status: { enum: ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'], $comment: 'spec 2.8' },
    listingId: uuid,
    versionId: uuid,
    input,
    output: orNull(object({ coverageGaps: { type: 'array', items: text }, chain: text }, [], 'spec 2.8')),
    rpcUsed: count,
    createdAt: dateTime,
  },
  ['id', 'status'],
  'spec 2.8',
);

const eventsSchema = { type: 'array', items: object({ step: text, message: text, createdAt: dateTime }, ['step', 'message', 'createdAt'], 'spec 2.9'), $comment: 'spec 2.9' };

const settlementSchema = object(
  {
    outcome: { enum: ['succeeded', 'partial', 'failed', 'cancelled', 'expired'], $comment: 'spec 2.11' },
    chargedAtomic: amount,
    creatorFeeAtomic: amount,
    platformFeeAtomic: amount,
    executionChargeAtomic: amount,
  },
  ['outcome', 'chargedAtomic', 'creatorFeeAtomic', 'platformFeeAtomic', 'executionChargeAtomic'],
  'spec 2.11',
);

/**
 * The immutable listing version (spec 2.12 leaves its fields unshown): what
 * the kit reads and what the reproduction hands to
 * PUT /sim/listings/{id}/versions/{versionId} (docs/support.md).
 */
const tariff = object(
  {
    profile: { enum: ['sim', 'local_custody', 'solana_sol', 'solana_usdc'], $comment: 'spec 2.3' },
    creatorFeeAtomic: amount,
    rpcCallAtomic: amount,
    model: orNull(object({ costCapAtomic: amount, rateAtomic: amount }, ['costCapAtomic', 'rateAtomic'], 'spec 2.7')),
  },
  ['profile', 'creatorFeeAtomic', 'rpcCallAtomic', 'model'],
  'spec 2.12',
);
const versionSchema = object(
  {
    id: uuid,
    listingId: uuid,
    priceRevision: count,
    createdAt: dateTime,
    manifest: object(
      {
        limits: object({ maximumRpcCalls: count, maximumDurationMs: { type: 'integer', minimum: 1 }, maximumOutputBytes: { type: 'integer', minimum: 1 } }, ['maximumRpcCalls', 'maximumDurationMs', 'maximumOutputBytes'], 'spec 2.5'),
        inputFields: { type: 'array', items: object({ name: text }, ['name'], 'spec 2.5') },
      },
      ['limits', 'inputFields'],
      'spec 2.12',
    ),
    tariffs: { type: 'array', items: tariff, minItems: 1, maxItems: 10 },
    resultContracts: { type: 'array', items: object({ policy: text, contract: text }, ['policy', 'contract'], 'spec 2.7') },
  },
  ['id', 'listingId', 'priceRevision', 'createdAt', 'manifest', 'tariffs', 'resultContracts'],
  'spec 2.12',
);

export const exportSchema = object({ run: runSchema, version: versionSchema, events: eventsSchema }, ['run', 'version', 'events'], 'spec 2.12');
export const runReadSchema = object({ run: runSchema, events: eventsSchema }, ['run', 'events'], 'spec 2.17');
export const receiptSchema = object(
  { runId: uuid, quote: quoteSchema, settlement: settlementSchema, payment: object({ assetId: text }, [], 'spec 2.12'), reservation: object({ id: uuid }, [], 'spec 2.10') },
  ['quote', 'settlement'],
  'spec 2.12',
);
export const billingSchema = object(
  {
    runId: uuid,
    quoteId: uuid,
    reservationId: uuid,
    status: { enum: ['reserved', 'pending', 'settled'], $comment: 'spec 2.11' },
    settlement: orNull(settlementSchema),
    authorizedRpcCalls: count,
    reconciledRpcCalls: count,
    unresolvedRpcCalls: count,
    modelCost: orNull(object({ usedAtomic: amount }, [], 'spec 2.11')),
  },
  ['runId', 'status', 'settlement'],
  'spec 2.11',
);
export const quoteAnswerSchema = object({ quote: quoteSchema }, ['quote'], 'spec 4.3');
