import { startUnderstudy } from '../library/index.ts';
import type { Scope } from '../client/index.ts';
import { learnOtherAgent, learnTokenResearch } from './probes/catalog.ts';
import { objectOf, query, type SideContext } from './probes/types.ts';
import { exchange } from './wire.ts';

/** The simulator the service is compared with: in the production environment, holding a key made like the user's. */
export interface Twin {
  url: string;
  key: string;
  stop(): Promise<void>;
}

const ACCOUNT_OF: Record<string, 'solana' | 'evm'> = { local_custody: 'evm', solana_sol: 'solana', solana_usdc: 'solana' };
const DAY_MS = 86_400_000;

/** Why a key like the user's cannot be made in the simulator's production environment. */
export class TwinError extends Error {}

/**
 * Starts the embedded simulator (production environment, real-time clock, rate
 * limits on) and makes a key like the user's, from what GET /v1/buyer/key
 * showed: profile, scopes, rate limit, expiry, and a spend limit equal to the
 * user's remaining spend (spec 4.5 checks spend before the hash, so the same
 * acceptance must fit or not fit on both sides). A restricted key is
 * restricted to the simulator's listings of the same roles.
 */
export async function startTwin(key: Record<string, unknown>, service: SideContext, now: () => number): Promise<Twin> {
  const profile = String(key.profile);
  const accountType = ACCOUNT_OF[profile];
  if (!accountType) throw new TwinError(`the key's profile is '${profile}': only SOL, USDC and ETH keys exist in production (spec 2.2), so there is nothing to compare it with.`);
  const understudy = await startUnderstudy({ env: 'production', clock: 'realtime', seed: 1 });
  try {
    const account = await understudy.control.createAccount({ type: accountType, label: 'drift check' });
    const listingIds = Array.isArray(key.listingIds) ? await sameRoles(understudy.url, profile, key.listingIds as string[], service, now) : null;
    const expiresAt = typeof key.expiresAt === 'string' ? Date.parse(key.expiresAt) : NaN;
    const created = await understudy.control.createKey(account.id, {
      profile: profile as 'local_custody',
      spendLimitAtomic: typeof key.remainingSpendAtomic === 'string' ? key.remainingSpendAtomic : '0',
      ...(typeof key.name === 'string' && key.name.length <= 100 ? { name: key.name } : {}),
      ...(Array.isArray(key.scopes) ? { scopes: key.scopes as Scope[] } : {}),
      ...(typeof key.rateLimitPerMinute === 'number' ? { rateLimitPerMinute: key.rateLimitPerMinute } : {}),
      ...(Number.isNaN(expiresAt) ? {} : { expiresInDays: Math.min(90, Math.max(1, Math.ceil((expiresAt - now()) / DAY_MS))) }),
      listingIds,
    });
    return { url: understudy.url, key: created.secret, stop: () => understudy.stop() };
  } catch (error) {
    await understudy.stop();
    throw error;
  }
}

/** The simulator's listings playing the roles of the user's allowed ones (the same unkeyed catalog reads the probes make). */
async function sameRoles(url: string, profile: string, allowed: string[], service: SideContext, now: () => number): Promise<string[]> {
  const ctx: SideContext = { side: 'simulator', unknownId: service.unknownId, testEnvironment: false, key: { profile, scopes: [], rail: 'custody', otherRail: 'solana-custody' } };
  const read = (params: Record<string, string | number>) => exchange(url, '', { method: 'GET', path: `/v1/public/agents?${query(params)}`, keyed: false }, now);
  learnTokenResearch(ctx, await read({ category: 'token_research', profile, q: 'token research', limit: 50 }));
  learnOtherAgent(ctx, await read({ sort: 'price', profile, available: 'true', review: 'reviewed', limit: 10 }));
  const ids: string[] = [];
  const lower = allowed.map((id) => String(id).toLowerCase());
  if (ctx.tokenResearch && service.tokenResearch && lower.includes(service.tokenResearch.listingId.toLowerCase())) ids.push(ctx.tokenResearch.listingId);
  if (ctx.otherAgent && service.otherAgent && lower.includes(service.otherAgent.listingId.toLowerCase())) ids.push(ctx.otherAgent.listingId);
  return ids;
}

export const keyObjectOf = (body: unknown) => objectOf(objectOf(body)?.key);
