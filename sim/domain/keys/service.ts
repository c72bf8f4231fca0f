import { accountView } from '../ledger/index.ts';
import type { Deps } from '../context.ts';
import { authenticate, createKey, keysOf, keyView, revokeKey, type CreateKeyInput } from './keys.ts';
import type { ApiKeyRecord } from './records.ts';
import type { Telemetry } from '../request-log/index.ts';

/** API keys (spec 3): issue, revoke, authenticate, and their views with the usage the telemetry counts. */
export function createKeys(deps: Deps, telemetry: Telemetry) {
  const view = (key: ApiKeyRecord) => keyView(deps, telemetry, key);
  return {
    view,
    authenticate: (secret: string) => authenticate(deps, secret),
    create(accountId: string, input: CreateKeyInput) {
      const { key, secret } = createKey(deps, accountId, input);
      return { key: view(key), secret };
    },
    revoke: (keyId: string) => view(revokeKey(deps, keyId)),
    ofAccount(accountId: string) {
      accountView(deps, accountId);
      return keysOf(deps.store, accountId).map(view);
    },
  };
}

export type KeysService = ReturnType<typeof createKeys>;
