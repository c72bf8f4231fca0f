/**
 * API keys and authentication (spec 3.5, 5). The folder's public face: only what
 * code outside it imports (the domain's other files take the stored shapes,
 * records.ts, as types).
 */
export { redactCredentials } from './credentials.ts';
// hashSecret: tests find a key's row in the store file by it.
export { createKey, DEFAULT_SCOPES, hashSecret, keyStatus, MONITOR_SCOPES, type CreateKeyInput } from './keys.ts';
export { SCOPES, type ApiKeyRecord, type Environment, type Scope } from './records.ts';
export { createKeys, type KeysService } from './service.ts';
