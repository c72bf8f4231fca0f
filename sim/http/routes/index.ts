import type { FastifyInstance } from 'fastify';
import type { Simulator } from '../../simulator.ts';
import { installCanonicalIds } from '../canonical-ids.ts';
import { buyerKeyRoutes } from './v1/buyer-key.ts';
import { capabilitiesRoutes } from './v1/capabilities.ts';
import { catalogRoutes } from './v1/catalog.ts';
import { quoteRoutes } from './v1/quotes.ts';
import { runRoutes } from './v1/runs.ts';
import { controlRunRoutes } from './sim/control-runs.ts';
import { monitorRoutes } from './v1/monitors.ts';
import { controlMonitorRoutes } from './sim/control-monitors.ts';
import { openApiRoutes } from './v1/openapi.ts';
import { controlCoreRoutes } from './sim/control-core.ts';
import { rehearsalRoutes } from '../rehearsal.ts';

/** Every route, in an explicit order. */
export function registerRoutes(app: FastifyInstance, sim: Simulator): void {
  // Before any route, so that every route's UUIDs are canonicalised.
  installCanonicalIds(app);
  buyerKeyRoutes(app, sim);
  capabilitiesRoutes(app, sim);
  catalogRoutes(app, sim);
  quoteRoutes(app, sim);
  runRoutes(app, sim);
  monitorRoutes(app, sim);
  openApiRoutes(app);
  controlCoreRoutes(app, sim);
  controlRunRoutes(app, sim);
  controlMonitorRoutes(app, sim);
  rehearsalRoutes(app, sim);
}
