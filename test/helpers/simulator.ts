import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildSimulator, type BuiltSimulator } from '../../sim/app.ts';
import type { SimulatorOptions } from '../../sim/simulator.ts';
import { seedDemo, type DemoCredential } from '../../sim/domain/demo.ts';

/** A real simulator on a real file store in a fresh temporary directory. */
export interface TestSimulator extends BuiltSimulator {
  dir: string;
  storePath: string;
  demo: DemoCredential[];
  /** The demo key secret of a profile. */
  secret(profile: DemoCredential['profile']): string;
  request(options: { method?: string; url: string; key?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  json<T = any>(options: { method?: string; url: string; key?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: T; headers: Record<string, unknown> }>;
  destroy(): Promise<void>;
}

export async function startSimulator(options: Partial<SimulatorOptions> & { demo?: boolean; dir?: string } = {}): Promise<TestSimulator> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'understudy-test-')));
  const storePath = options.storePath ?? join(dir, 'store.json');
  const built = await buildSimulator({ clock: 'frozen', seed: 1, limits: false, ...options, storePath });
  const demo = options.demo === false || !built.sim.created ? [] : seedDemo(built.sim.deps);
  const request: TestSimulator['request'] = ({ method = 'GET', url, key, body, headers = {} }) =>
    built.app.inject({
      method: method as never,
      url,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      ...(body !== undefined ? { payload: body as never } : {}),
    });
  return {
    ...built,
    dir,
    storePath,
    demo,
    secret(profile) {
      const credential = demo.find((d) => d.profile === profile);
      if (!credential) throw new Error(`no demo key for ${profile}`);
      return credential.secret;
    },
    request,
    async json(options) {
      const response = await request(options);
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, headers: response.headers };
    },
    async destroy() {
      await built.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Listens on a free loopback port, for tests that need real sockets. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}
