import * as nodeCrypto from 'node:crypto';
import { ASSETS } from '../catalog/index.ts';
import type { Profile } from '../catalog/catalog-types.ts';
import { iso, transact, type Deps, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import { sub, gte } from '../money.ts';
import { SCOPES, type ApiKeyRecord, type Environment, type Scope } from './records.ts';
import { type Account } from '../ledger/records.ts';
import type { Telemetry } from '../request-log/index.ts';
import { schedule } from '../jobs/index.ts';
import { sealedToken } from '../deliveries/index.ts';

/** Spec part 5: key format, creation rules, status and the key object of 2.3. */

export const KEY_PREFIX: Record<Environment, string> = { test: 'svc_test_', production: 'svc_live_' };
export const DEFAULT_SCOPES: Scope[] = ['catalog:read', 'quotes:write', 'runs:read', 'billing:read'];
export const MONITOR_SCOPES: Scope[] = ['monitors:read', 'monitors:write'];
const MAX_ACTIVE_KEYS = 20;
const MAX_TOTAL_KEYS = 50;
const DAY_MS = 86_400_000;

/** crypto.hash (Node ≥ 20.12): a one-shot digest without a Hash object, several times faster on a key-sized input. */
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** Every keyed request hashes its bearer secret to find the key. */
export const hashSecret: (secret: string) => string = oneShotHash
  ? (secret) => oneShotHash('sha256', secret, 'hex')
  : (secret) => nodeCrypto.createHash('sha256').update(secret).digest('hex');

/** One compiled pattern per environment (authenticate runs on every keyed request). */
const KEY_FORMATS: Record<Environment, RegExp> = {
  test: new RegExp(`^${KEY_PREFIX.test}[A-Za-z0-9_-]{43}$`),
  production: new RegExp(`^${KEY_PREFIX.production}[A-Za-z0-9_-]{43}$`),
};

export function keyFormat(env: Environment): RegExp {
  return KEY_FORMATS[env];
}

export type KeyStatus = 'active' | 'expired' | 'revoked';

export function keyStatus(key: ApiKeyRecord, nowMs: number): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (Date.parse(key.expiresAt) <= nowMs) return 'expired';
  return 'active';
}

export interface CreateKeyInput {
  profile: Profile;
  spendLimitAtomic: string;
  name?: string;
  scopes?: Scope[];
  expiresInDays?: number;
  rateLimitPerMinute?: number;
  listingIds?: string[] | null;
}

/** Whether keys of `profile` may hold monitor scopes: EVM accounts' ETH keys only (spec 5, 4). */
export const offersMonitorScopes = (account: Account, profile: Profile) => account.type === 'evm' && profile === 'local_custody';

export function createKey(deps: Deps, accountId: string, input: CreateKeyInput): { key: ApiKeyRecord; secret: string } {
  return transact(deps, (tx) => {
    const account = tx.get('accounts', accountId);
    if (!account) throw errors.notFound('This account was not found.');
    if (!ASSETS[input.profile].accountTypes.includes(account.type)) {
      throw errors.invalidInput(`profile: a ${account.type === 'solana' ? 'Solana' : 'EVM'} account cannot hold a ${input.profile} key.`);
    }
    if (input.profile === 'sim' && deps.env === 'production') throw errors.unavailable('The sim profile is not available in the production environment.');
    const scopes = input.scopes ?? DEFAULT_SCOPES;
    if (new Set(scopes).size !== scopes.length) throw errors.invalidInput('scopes: each scope may appear once.');
    if (scopes.some((s) => MONITOR_SCOPES.includes(s)) && !offersMonitorScopes(account, input.profile)) {
      throw errors.invalidInput('scopes: monitor scopes are offered only to ETH keys of EVM accounts.');
    }
    const listingIds = input.listingIds ?? null;
    if (listingIds) {
      if (new Set(listingIds).size !== listingIds.length) throw errors.invalidInput('listingIds: each listing may appear once.');
      const unknown = listingIds.find((id) => !tx.get('listings', id));
      if (unknown) throw errors.invalidInput(`listingIds: no listing has the id ${unknown}.`);
    }
    const now = deps.clock.now();
    const own = tx.all('keys').filter((k) => k.accountId === accountId);
    if (own.length >= MAX_TOTAL_KEYS) throw errors.conflict(`This account already has ${MAX_TOTAL_KEYS} keys, the most it can have including revoked and expired keys.`);
    if (own.filter((k) => keyStatus(k, now) === 'active').length >= MAX_ACTIVE_KEYS) {
      throw errors.conflict(`This account already has ${MAX_ACTIVE_KEYS} active keys. Revoke one first.`);
    }
    const secret = KEY_PREFIX[deps.env] + sealedToken(deps, 'key');
    const id = deps.random.uuid();
    const key: ApiKeyRecord = {
      id,
      accountId,
      name: input.name ?? null,
      prefix: secret.slice(0, KEY_PREFIX[deps.env].length + 4),
      last4: secret.slice(-4),
      secretHash: hashSecret(secret),
      scopes: SCOPES.filter((s) => scopes.includes(s)),
      profile: input.profile,
      listingIds,
      spendLimitAtomic: input.spendLimitAtomic,
      spendCommittedAtomic: '0',
      rateLimitPerMinute: input.rateLimitPerMinute ?? 60,
      createdAt: iso(now),
      expiresAt: iso(now + (input.expiresInDays ?? 30) * DAY_MS),
      revokedAt: null,
    };
    tx.put('keys', key);
    tx.put('keySecrets', { id: key.secretHash, keyId: id });
    schedule(tx, 'key.expire', id, Date.parse(key.expiresAt));
    return { key, secret };
  });
}

/** Revocation is immediate and permanent; revoking twice changes nothing (spec 3.5). */
export function revokeKey(deps: Deps, keyId: string): ApiKeyRecord {
  const existing = deps.store.get('keys', keyId);
  if (!existing) throw errors.notFound('This API key was not found.');
  if (existing.revokedAt) return existing;
  return transact(deps, (tx) => {
    const key = { ...existing, revokedAt: iso(deps.clock.now()) };
    tx.put('keys', key);
    return key;
  });
}

/** The key a bearer secret names, when it is well-formed, known and active; otherwise null (one 401 for all). */
export function authenticate(deps: Deps, secret: string): ApiKeyRecord | null {
  if (!keyFormat(deps.env).test(secret)) return null;
  const index = deps.store.get('keySecrets', hashSecret(secret));
  const key = index && deps.store.get('keys', index.keyId);
  if (!key || keyStatus(key, deps.clock.now()) !== 'active') return null;
  return key;
}

/** The key in a spec 2.3 view. */
export function keyView(deps: Deps, telemetry: Telemetry, key: ApiKeyRecord) {
  const now = deps.clock.now();
  const usage = telemetry.usageOf(key.id, now);
  const remaining = gte(key.spendLimitAtomic, key.spendCommittedAtomic) ? sub(key.spendLimitAtomic, key.spendCommittedAtomic) : '0';
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    scopes: key.scopes,
    profile: key.profile,
    assetId: ASSETS[key.profile].assetId,
    listingIds: key.listingIds,
    spendLimitAtomic: key.spendLimitAtomic,
    spendUsedAtomic: key.spendCommittedAtomic,
    remainingSpendAtomic: remaining,
    rateLimitPerMinute: key.rateLimitPerMinute,
    requestsLast24h: usage.requestsLast24h,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    lastUsedAt: usage.lastUsedAt,
    revokedAt: key.revokedAt,
    status: keyStatus(key, now),
  };
}

export function keysOf(tx: Pick<StoreTx, 'all'>, accountId: string): ApiKeyRecord[] {
  return tx.all('keys').filter((k) => k.accountId === accountId);
}
