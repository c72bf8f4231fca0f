import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.ts';
import type { SimulatorControl } from '../../simulator.ts';
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

/** Every route, in an explicit order; each is handed the services it calls. */
export function registerRoutes(app: FastifyInstance, services: Services, control: SimulatorControl): void {
  // Before any route, so that every route's UUIDs are canonicalised.
  installCanonicalIds(app);
  buyerKeyRoutes(app, services);
  capabilitiesRoutes(app, services);
  catalogRoutes(app, services);
  quoteRoutes(app, services);
  runRoutes(app, services);
  monitorRoutes(app, services);
  openApiRoutes(app);
  controlCoreRoutes(app, { ...services, control });
  controlRunRoutes(app, services);
  controlMonitorRoutes(app, services);
}
