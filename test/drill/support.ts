import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Shared helpers of the chaos and conduct suites (not a test file). */

export const TOKEN_INPUT = { chain: 'ethereum', address: `0x${'ab'.repeat(20)}` };
export const QUOTE_BODY = { listingId: TOKEN_RESEARCH_LISTING_ID, input: TOKEN_INPUT };

export interface LiveSimulator {
  sim: TestSimulator;
  url: string;
  key: string;
  keyId: string;
  /** A /v1 or /sim request over the real socket; `lost` when the connection ended with no answer. */
  call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any; headers: Headers } | 'lost'>;
  setChaos(profile: unknown, seed?: string | number): Promise<void>;
  accountOf(profile?: string): Promise<{ availableAtomic: string; reservedAtomic: string }>;
  lines(): Promise<any[]>;
  report(keyId?: string): Promise<any>;
}

/** A simulator on a loopback port (resets and lost answers need a real connection), frozen clock, demo data. */
export async function startLive(): Promise<LiveSimulator> {
  const sim = await startSimulator();
  const url = await listen(sim.app);
  const eth = sim.demo.find((d) => d.profile === 'local_custody')!;
  const call: LiveSimulator['call'] = async (method, path, body, key = eth.secret) => {
    try {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...(path.startsWith('/v1') && key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    } catch {
      return 'lost';
    }
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await call(method, path, body);
    if (answer === 'lost' || answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer === 'lost' ? answer : answer.body)}`);
    return answer.body;
  };
  return {
    sim,
    url,
    key: eth.secret,
    keyId: eth.keyId,
    call,
    async setChaos(profile, seed) {
      await ok('PUT', '/sim/chaos', seed === undefined ? { profile } : { profile, seed });
    },
    async accountOf(profile = 'local_custody') {
      const view = await ok('GET', `/sim/accounts/${eth.accountId}`);
      return view.balances.find((b: { profile: string }) => b.profile === profile);
    },
    async lines() {
      return (await ok('GET', `/sim/conduct?keyId=${eth.keyId}`)).lines;
    },
    async report(keyId) {
      return ok('GET', `/sim/report${keyId ? `?keyId=${keyId}` : ''}`);
    },
  };
}

/** A profile where one fault happens to every request of one group. */
export const always = (group: string, kind: string, extra: Record<string, unknown> = {}) => ({ name: `always-${kind}`, retryAfterSeconds: [2, 2], slowBodyMs: 300, groups: { [group]: { [kind]: 1 } }, ...extra });
