/**
 * The scenario file format, as a JSON Schema (published as
 * docs/scenario.schema.json; a test keeps the two equal). Strings may hold
 * {{name}} references to values saved by earlier steps.
 */
const Json = {};
const Method = { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] };
const Name = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_-]{0,39}$' };
const Amount = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' };
const Profile = { enum: ['sim', 'local_custody', 'solana_sol', 'solana_usdc'] };

const Expect = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'integer', minimum: 100, maximum: 599 },
    code: { type: 'string' },
    message: { type: 'string' },
    body: Json,
    header: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const Checks = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    balance: {
      type: 'object',
      additionalProperties: false,
      required: ['account', 'profile'],
      properties: {
        account: Name,
        profile: Profile,
        depositedAtomic: Amount,
        availableAtomic: Amount,
        reservedAtomic: Amount,
        pendingAtomic: Amount,
        chargedAtomic: Amount,
      },
    },
    keySpend: { type: 'object', additionalProperties: false, required: ['key', 'spendUsedAtomic'], properties: { key: Name, spendUsedAtomic: Amount } },
    webhook: {
      type: 'object',
      additionalProperties: false,
      required: ['receiver'],
      properties: {
        receiver: Name,
        count: { type: 'integer', minimum: 0 },
        type: { type: 'string' },
        /** Every counted delivery's signature verifies with this secret (usually "{{...signingSecret}}"). */
        secret: { type: 'string' },
      },
    },
  },
};

const Save = { type: 'object', additionalProperties: { type: 'string', minLength: 1 } };
const stepBase = { name: { type: 'string', maxLength: 200 }, save: Save, expect: Expect };
const action = (key: string, schema: object) => ({
  type: 'object',
  additionalProperties: false,
  required: [key],
  properties: { ...stepBase, [key]: schema },
});

const Log = {
  type: 'object',
  additionalProperties: false,
  required: ['address', 'event', 'args'],
  properties: { address: { type: 'string' }, event: { type: 'string' }, args: { type: 'object', additionalProperties: { type: 'string' } }, transactionHash: { type: 'string' } },
};

export const scenarioSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://understudy.local/scenario.schema.json',
  title: 'understudy scenario',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'steps'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string' },
    /** What the author could not know and chose (a support case's reproduction lists them; shown in the transcript). */
    assumptions: { type: 'array', items: { type: 'string', minLength: 1 } },
    seed: { type: ['integer', 'string'] },
    env: { enum: ['test', 'production'] },
    limits: { enum: ['on', 'off'] },
    /** Start from the demo data of a new store (serve's accounts and keys): keys demo-<profile>, accounts demo-solana and demo-evm. */
    demo: { type: 'boolean' },
    /** The simulated time the scenario starts at (default 2026-01-01T00:00:00.000Z, the simulator's epoch; never earlier). */
    startAt: { type: 'string', format: 'date-time' },
    accounts: {
      type: 'object',
      propertyNames: Name,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { enum: ['solana', 'evm'] },
          label: { type: 'string' },
          deposits: { type: 'object', propertyNames: Profile, additionalProperties: Amount },
          keys: {
            type: 'object',
            propertyNames: Name,
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['profile', 'spendLimitAtomic'],
              properties: {
                profile: Profile,
                spendLimitAtomic: Amount,
                scopes: { type: 'array', items: { type: 'string' } },
                expiresInDays: { type: 'integer' },
                rateLimitPerMinute: { type: 'integer' },
                listingIds: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    receivers: {
      type: 'object',
      propertyNames: Name,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          /** HTTP statuses answered to deliveries in turn; the last one repeats. */
          answers: { type: 'array', items: { type: 'integer', minimum: 200, maximum: 599 }, minItems: 1 },
          echoChallenge: { type: 'boolean' },
        },
      },
    },
    steps: {
      type: 'array',
      items: {
        oneOf: [
          action('call', {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'path'],
            properties: { method: Method, path: { type: 'string', pattern: '^/v1/' }, key: Name, query: { type: 'object' }, body: Json, headers: { type: 'object', additionalProperties: { type: 'string' } } },
          }),
          action('control', {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'path'],
            properties: { method: Method, path: { type: 'string', pattern: '^/sim/' }, body: Json },
          }),
          action('advance', {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            maxProperties: 1,
            properties: { seconds: { type: 'number', minimum: 0 }, to: { type: 'string' }, next: { const: true } },
          }),
          action('block', { type: 'object', additionalProperties: false, required: ['chain'], properties: { chain: { type: 'string' }, count: { type: 'integer', minimum: 1 }, logs: { type: 'array', items: Log } } }),
          action('reorg', { type: 'object', additionalProperties: false, required: ['chain', 'depth'], properties: { chain: { type: 'string' }, depth: { type: 'integer', minimum: 1 }, logs: { type: 'array', items: Log } } }),
          {
            type: 'object',
            additionalProperties: false,
            required: ['check'],
            properties: { name: { type: 'string', maxLength: 200 }, check: Checks },
          },
        ],
      },
    },
  },
} as const;
