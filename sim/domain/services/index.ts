import type { WebhookSender } from '../../runtime/webhook-sender.ts';
import type { Deps } from '../context.ts';
import type { RollingWindows } from '../rate-limits.ts';
import type { Telemetry } from '../telemetry.ts';
import { createCatalog } from './catalog.ts';
import { createChains, type ChainsDependencies } from './chains.ts';
import { createDeliveries } from './deliveries.ts';
import { createKeys } from './keys.ts';
import { createLedger } from './ledger.ts';
import { createLimits } from './limits.ts';
import { createMonitors } from './monitors.ts';
import { createPlatform } from './platform.ts';
import { createQuotes } from './quotes.ts';
import { createRuns } from './runs.ts';

/** Everything the services are built from; each takes only its part of it. */
export interface ServiceWiring extends ChainsDependencies {
  deps: Deps;
  telemetry: Telemetry;
  windows: RollingWindows;
  limitsOn: boolean;
  send: WebhookSender;
}

/** The domain's services, each with its dependencies declared: what routes and hooks are handed (sim/app.ts wires them once). */
export function createServices(wiring: ServiceWiring) {
  const { deps, telemetry, send } = wiring;
  const limits = createLimits(wiring.windows, wiring.limitsOn);
  return {
    limits,
    telemetry,
    catalog: createCatalog(deps),
    quotes: createQuotes(deps),
    ledger: createLedger(deps),
    keys: createKeys(deps, telemetry),
    runs: createRuns(deps),
    monitors: createMonitors(deps, limits),
    chains: createChains(deps, wiring),
    deliveries: createDeliveries(deps, send),
    platform: createPlatform(deps, limits),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { CatalogService } from './catalog.ts';
export type { ChainsService } from './chains.ts';
export type { DeliveriesService } from './deliveries.ts';
export type { KeysService } from './keys.ts';
export type { LedgerService } from './ledger.ts';
export type { LimitsService } from './limits.ts';
export type { MonitorsService } from './monitors.ts';
export type { PlatformService } from './platform.ts';
export type { QuotesService } from './quotes.ts';
export type { RunsService } from './runs.ts';
