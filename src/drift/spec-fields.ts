import type { Form, JsonType } from './shape.ts';

/** What the spec states about one path of an answer. */
export interface FieldRule {
  part: string;
  types: JsonType[];
  /** The form a string must have (spec 2.1), when the spec gives one. */
  form?: Form;
  required: boolean;
  /** The values the spec allows. */
  enum?: string[];
  /** The values seen are the same on both sides whatever the data (they follow from the key or the request). */
  sameValues?: boolean;
}

/** One kind of answer: the paths the spec names, and which decision covers the rest. */
export interface AnswerKind {
  name: string;
  fields: Record<string, FieldRule>;
  /** The decision answering for fields the spec does not name here. */
  otherFields: string;
}

/** `'uuid!'`: required uuid; `'null|date-time'`: null or a date-time string; `'integer'`, `'object'` ... */
function rule(part: string, spec: string, extra: Partial<FieldRule> = {}): FieldRule {
  const required = spec.endsWith('!');
  const types: JsonType[] = [];
  let form: Form | undefined;
  for (const word of spec.replace(/!$/, '').split('|')) {
    if (word === 'uuid' || word === 'date-time' || word === 'hex64' || word === 'amount') {
      types.push('string');
      form = word;
    } else if (word === 'integer') types.push('integer');
    else types.push(word as JsonType);
  }
  return { part, types, required, ...(form ? { form } : {}), ...extra };
}

/** Prefixes every path of a table (`agent` + `.name`), so the summary serves the page and the detail. */
const under = (prefix: string, fields: Record<string, FieldRule>) => Object.fromEntries(Object.entries(fields).map(([path, r]) => [`${prefix}${path}`, r]));

const SCOPES = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read', 'monitors:read', 'monitors:write'];
const PROFILES = ['sim', 'local_custody', 'solana_sol', 'solana_usdc'];

const AGENT_SUMMARY: Record<string, FieldRule> = {
  '': rule('2.4', 'object!'),
  '.listingId': rule('2.4', 'uuid!'),
  '.name': rule('2.4', 'string!'),
  '.description': rule('2.4', 'string'),
  '.chains': rule('2.4', 'array'),
  '.chains[]': rule('2.4', 'string'),
  '.offers': rule('2.4', 'array!'),
  '.offers[]': rule('2.4', 'object!'),
  '.offers[].profile': rule('2.4', 'string!'),
  '.offers[].enabled': rule('2.4', 'boolean!'),
  '.offers[].pricing': rule('2.4', 'object'),
  '.offers[].pricing.maximumBuyerDebitAtomic': rule('2.4', 'amount'),
  '.availability': rule('2.4', 'object'),
  '.availability.available': rule('2.4', 'boolean'),
  '.availability.reasons': rule('2.4', 'array'),
  '.availability.reasons[]': rule('2.4', 'string'),
};

export const ERROR: AnswerKind = {
  name: 'error body',
  otherFields: 'messages',
  fields: { error: rule('2.16', 'object!'), 'error.code': rule('2.16', 'string!'), 'error.message': rule('2.16', 'string!') },
};

export const KEY: AnswerKind = {
  name: 'API key',
  otherFields: 'key-objects',
  fields: {
    key: rule('2.3', 'object!'),
    'key.id': rule('2.3', 'uuid!'),
    'key.name': rule('2.3', 'string|null'),
    'key.prefix': rule('2.3', 'string'),
    'key.last4': rule('2.3', 'string'),
    'key.scopes': rule('2.3', 'array!'),
    'key.scopes[]': rule('2.3', 'string!', { enum: SCOPES, sameValues: true }),
    'key.profile': rule('2.3', 'string!', { enum: PROFILES, sameValues: true }),
    'key.assetId': rule('2.3', 'string'),
    'key.listingIds': rule('2.3', 'null|array'),
    'key.listingIds[]': rule('2.3', 'uuid'),
    'key.spendLimitAtomic': rule('2.3', 'amount!'),
    'key.spendUsedAtomic': rule('2.3', 'amount!'),
    'key.remainingSpendAtomic': rule('2.3', 'amount!'),
    'key.rateLimitPerMinute': rule('2.3', 'integer'),
    'key.requestsLast24h': rule('2.3', 'integer'),
    'key.createdAt': rule('2.3', 'date-time'),
    'key.expiresAt': rule('2.3', 'date-time!'),
    'key.lastUsedAt': rule('2.3', 'null|date-time'),
    'key.revokedAt': rule('2.3', 'null|date-time'),
    'key.status': rule('2.3', 'string!', { enum: ['active', 'expired', 'revoked'], sameValues: true }),
  },
};

export const AGENT_PAGE: AnswerKind = {
  name: 'agent page',
  otherFields: 'extra-fields',
  fields: {
    agents: rule('2.17', 'array!'),
    'agents[]': AGENT_SUMMARY[''],
    ...under('agents[]', AGENT_SUMMARY),
    nextCursor: rule('2.17', 'null|string!'),
    total: rule('2.17', 'integer!'),
    sort: rule('2.17', 'string!'),
    environment: rule('2.17', 'object!'),
  },
};

export const AGENT_DETAIL: AnswerKind = {
  name: 'agent detail',
  otherFields: 'extra-fields',
  fields: {
    agent: AGENT_SUMMARY[''],
    ...under('agent', AGENT_SUMMARY),
    'agent.permissions': rule('2.5', 'array'),
    'agent.permissions[]': rule('2.5', 'object'),
    'agent.permissions[].id': rule('2.5', 'string'),
    'agent.permissions[].label': rule('2.5', 'string'),
    'agent.permissions[].detail': rule('2.5', 'string'),
    'agent.limits': rule('2.5', 'object'),
    'agent.limits.maximumRpcCalls': rule('2.5', 'integer'),
    'agent.limits.maximumDurationMs': rule('2.5', 'integer'),
    'agent.limits.maximumOutputBytes': rule('2.5', 'integer'),
    'agent.inputFields': rule('2.5', 'array'),
    'agent.inputFields[]': rule('2.5', 'object'),
    'agent.resultPolicies': rule('2.5', 'array'),
    'agent.resultPolicies[]': rule('2.5', 'object'),
    'agent.refundPolicy': rule('2.5', 'array'),
    'agent.refundPolicy[]': rule('2.5', 'string'),
    'agent.limitations': rule('2.5', 'array'),
    'agent.limitations[]': rule('2.5', 'string'),
  },
};

export const RAIL_CATALOG: AnswerKind = {
  name: 'rail catalog',
  otherFields: 'rail-catalogs',
  fields: { listings: rule('2.6', 'array!'), 'listings[]': rule('2.6', 'object'), pricingPolicy: rule('2.6', 'object') },
};

export const QUOTE: AnswerKind = {
  name: 'quote',
  otherFields: 'extra-fields',
  fields: {
    quote: rule('2.7', 'object!'),
    'quote.id': rule('2.7', 'uuid!'),
    'quote.contractHash': rule('2.7', 'hex64!'),
    'quote.maximumBuyerDebitAtomic': rule('2.7', 'amount!'),
    'quote.expiresAt': rule('2.7', 'date-time!'),
    // "Additional fields are present" (2.7): named, so their presence is stated.
    'quote.asset': rule('2.2', 'object!'),
    'quote.asset.namespace': rule('2.2', 'string!'),
    'quote.asset.cluster': rule('2.2', 'string!'),
    'quote.asset.kind': rule('2.2', 'string!'),
    'quote.asset.decimals': rule('2.2', 'integer!'),
    'quote.currencyLabel': rule('2.7', 'string!'),
    'quote.grossCreatorFeeAtomic': rule('2.7', 'amount!'),
    'quote.platformFeeAtomic': rule('2.7', 'amount!'),
    'quote.creatorCreditAtomic': rule('2.7', 'amount!'),
    'quote.feeBps': rule('2.7', 'integer!'),
    'quote.maxExecutionChargeAtomic': rule('2.7', 'amount!'),
    'quote.unitCosts': rule('2.7', 'object!'),
    'quote.resultPolicy': rule('3.4', 'string!', { enum: ['complete_only', 'canonical_metadata'], sameValues: true }),
    'quote.resultContract': rule('2.7', 'string|object!'),
    'quote.modelExecution': rule('2.7', 'object|null!'),
    'quote.input': rule('2.7', 'object!'),
    'quote.agentKind': rule('2.7', 'string!'),
    'quote.priceRevision': rule('2.7', 'integer|string!'),
    'quote.notice': rule('2.7', 'string!'),
  },
};

const MONITOR: Record<string, FieldRule> = {
  '': rule('2.13', 'object'),
  '.id': rule('2.13', 'uuid!'),
  '.status': rule('2.13', 'string!', { enum: ['active', 'paused', 'stopped', 'expired', 'exhausted'] }),
  '.name': rule('2.13', 'string'),
  '.versionId': rule('2.13', 'uuid'),
  '.chain': rule('2.13', 'string'),
  '.statusReason': rule('2.13', 'string|null'),
  '.endsAt': rule('2.13', 'date-time'),
  '.tickBudget': rule('2.13', 'integer'),
  '.ticksUsed': rule('2.13', 'integer'),
  '.rpcBudget': rule('2.13', 'integer'),
  '.rpcUsed': rule('2.13', 'integer'),
  '.webhook': rule('2.13', 'null|object'),
};

export const MONITOR_LIST: AnswerKind = {
  name: 'monitor list',
  otherFields: 'extra-fields',
  fields: { monitors: rule('2.17', 'array!'), ...under('monitors[]', MONITOR) },
};

export const NOTIFICATION_LIST: AnswerKind = {
  name: 'notification list',
  otherFields: 'extra-fields',
  fields: {
    notifications: rule('2.17', 'array!'),
    'notifications[]': rule('2.14', 'object'),
    'notifications[].id': rule('2.14', 'uuid!'),
    'notifications[].monitorId': rule('2.14', 'uuid!'),
    'notifications[].kind': rule('2.14', 'string!'),
    'notifications[].title': rule('2.14', 'string!'),
    'notifications[].body': rule('2.14', 'string!'),
    'notifications[].createdAt': rule('2.14', 'date-time!'),
    'notifications[].event': rule('2.14', 'object'),
    'notifications[].acknowledgedAt': rule('2.14', 'null|date-time'),
  },
};

/** Capabilities: "response shape and scope: not shown" (spec 4). */
export const CAPABILITIES: AnswerKind = { name: 'capabilities', otherFields: 'platform-queue', fields: {} };
