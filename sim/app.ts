import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { Simulator, type SimulatorOptions } from './simulator.ts';
import { lazyValidators } from './http/plugins/validation.ts';
import { lazySerializers } from './http/plugins/serialization.ts';
import { frameworkErrors, installErrorHandling } from './http/plugins/errors.ts';
import { installAuth } from './http/plugins/auth.ts';
import { installLifecycle } from './http/plugins/lifecycle.ts';
import { installJsonBody } from './http/plugins/json-body.ts';
import { installBrowserAccess } from './http/plugins/browsers.ts';
import { installOpenApi } from './http/openapi.ts';
import { registerRoutes } from './http/routes/index.ts';
import { createServices, type Services } from './domain/services.ts';
import { readChainScriptText } from './runtime/chain-script-file.ts';
import { createDrill, drillRoutes, installDrill, type Drill } from './drill/index.ts';
import { installAnswerFacts } from './http/plugins/answer-facts.ts';
import { installStopping } from './http/plugins/stopping.ts';
import { realDeadline } from './runtime/deadline.ts';

/** Spec 8: request bodies up to 262144 bytes. */
export const BODY_LIMIT_BYTES = 262_144;

/** How long a stop lets requests in flight finish before their connections are closed (docs/decisions.md, "Store and telemetry"). */
export const STOP_GRACE_MS = 5_000;

export interface BuiltSimulator {
  app: FastifyInstance;
  sim: Simulator;
  /** The domain's services, as the routes are handed them. */
  services: Services;
  /** Chaos and the conduct report (docs/drill.md). */
  drill: Drill;
  /**
   * Stops: no new connections, idle ones closed at once, requests in flight
   * finish (at most STOP_GRACE_MS) and their connections close with them, any
   * further request is answered 503; then the store's last checkpoint. What the
   * store could not write at the end (see Simulator.close), or null.
   */
  close(): Promise<Error | null>;
}

/** The simulator behind Fastify, not yet listening. */
export async function buildSimulator(
  options: SimulatorOptions & {
    logger?: boolean;
    /** Extra hooks (a recorder) added before the app is sealed. */
    beforeReady?: (app: FastifyInstance, sim: Simulator) => void;
    /** Origins (or '*') whose pages may read the keyless /v1 routes (serve --cors); none by default. */
    corsOrigins?: readonly string[];
    /** serve --chaos: a built-in profile's name or a profile object (sim/drill/profiles.ts). */
    chaos?: unknown;
    /**
     * false: no chaos and no conduct lines, and no /sim/chaos, /sim/report or /sim/conduct
     * (the bench's measure of what the drill costs a purchase). On by default.
     */
    drill?: boolean;
  },
): Promise<BuiltSimulator> {
  const sim = await Simulator.open(options);
  // Wired once, here: each service gets only what it declares.
  const services = createServices({
    deps: sim.deps,
    telemetry: sim.telemetry,
    windows: sim.windows,
    limitsOn: sim.limitsOn,
    send: sim.send,
    runDue: () => sim.catchUp(),
    readScript: readChainScriptText,
  });
  const app = Fastify({
    logger: options.logger ? { level: 'error' } : false,
    // The one line this logger writes (an unexpected failure) names its request itself
    // (errors.ts); a child logger per request would cost every request for it.
    childLoggerFactory: (logger) => logger,
    // No per-request "incoming request"/"request completed" entries: the request log is
    // the simulator's own (telemetry), and only unexpected failures are logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A client's address is the socket's; forwarded headers are not trusted.
    trustProxy: false,
    return503OnClosing: false,
    // Malformed URLs and over-long path ids are refused before routing; they still get the spec's error body.
    frameworkErrors,
    // Validators and serializers are compiled as routes first need them, not at ready().
    schemaController: { compilersFactory: { buildValidator: lazyValidators(), buildSerializer: lazySerializers() } },
  });
  installErrorHandling(app, sim.controlToken);
  // First of the hooks: a request arriving during a stop is refused before anything else runs.
  const stopping = installStopping(app);
  installJsonBody(app);
  installOpenApi(app);
  const drilling = options.drill !== false;
  const drill = createDrill({ seed: () => sim.seed, chaos: options.chaos, sealing: sim.deps.sealing, now: () => sim.deps.clock.now() });
  installAnswerFacts(app);
  installLifecycle(app, {
    clock: sim.deps.clock,
    store: sim.deps.store,
    telemetry: sim.telemetry,
    controlToken: sim.controlToken,
    catchUpUnlessBusy: () => (sim.scheduler.isBusy ? undefined : sim.catchUp()),
  });
  installAuth(app, { clock: sim.deps.clock, env: sim.deps.env, keys: services.keys, limits: services.limits, telemetry: sim.telemetry });
  const browsers = installBrowserAccess(app, options.corsOrigins ?? []);
  if (drilling) installDrill(app, drill);
  registerRoutes(app, services, sim);
  if (drilling) drillRoutes(app, drill, (runId) => services.runs.money(runId));
  browsers.addPreflightRoutes();
  options.beforeReady?.(app, sim);
  await app.ready();
  let closed = false;
  return {
    app,
    sim,
    services,
    drill,
    async close() {
      if (closed) return null;
      closed = true;
      stopping.begin();
      // Fastify stops listening and Node closes the idle keep-alive connections at once;
      // the busy ones close after their answers (Connection: close), or here at the latest.
      const closing = app.close();
      const cancel = realDeadline(STOP_GRACE_MS, () => app.server.closeAllConnections());
      try {
        await closing;
      } finally {
        cancel();
      }
      return sim.close();
    },
  };
}
