import { isClientError, type Client } from '../../client/index.ts';
import { refusalMeaning } from '../refusals.ts';
import type { ConsoleState, GetState, SetState } from './console-state.ts';
import type { DisplayError, Environment } from './types.ts';

export type CallResult<T> = { ok: true; value: T } | { ok: false };

/** What a slice needs: the store's set/get, and the one guarded way to reach the client. */
export interface SliceContext {
  set: SetState;
  get: GetState;
  /** Watches the store: for timers that follow state (the run poll), started and stopped by actions. */
  subscribe(listener: (state: ConsoleState, previous: ConsoleState) => void): () => void;
  /** For the few calls whose failures must not reach the error line. */
  client: Client;
  call<T>(operation: (client: Client) => Promise<T>): Promise<CallResult<T>>;
  /** Marks a screen load the user asked for (opening a screen, an agent, a quote, a run): keys typed meanwhile are held until it ends. */
  loading<T>(work: () => Promise<T>): Promise<T>;
}

/** Any failure becomes code + message for the error line; the console never crashes on one. */
export function toDisplayError(error: unknown, environment: Environment | null = null): DisplayError {
  if (isClientError(error)) {
    const status = 'status' in error ? error.status : null;
    const where = 'path' in error ? { method: error.method, path: error.path } : {};
    return { code: error.code, message: error.message, status, meaning: refusalMeaning(error.code, status, error.message, { environment, ...where }) };
  }
  return { code: 'console_error', message: error instanceof Error ? error.message : String(error), status: null };
}

/**
 * Each call clears the previous error first, so the error line always
 * describes the latest thing the user asked for.
 */
export function guardedCall(client: Client, set: SetState, environment: Environment | null = null) {
  return async <T>(operation: (client: Client) => Promise<T>): Promise<CallResult<T>> => {
    set({ error: null });
    try {
      return { ok: true, value: await operation(client) };
    } catch (error) {
      set({ error: toDisplayError(error, environment) });
      return { ok: false };
    }
  };
}

/** Counts screen loads in flight in `loading`, so keys typed during one wait for it (keys/key-router.ts). */
export function loadingCounter(set: SetState) {
  return async <T>(work: () => Promise<T>): Promise<T> => {
    set((s) => ({ loading: s.loading + 1 }));
    try {
      return await work();
    } finally {
      set((s) => ({ loading: s.loading - 1 }));
    }
  };
}
