import type { WebhookSender } from '../runtime/webhook-sender.ts';
import type { RollingWindows } from './limits/index.ts';
import type { Telemetry } from './request-log/index.ts';
import { createCatalog } from './catalog/index.ts';
import { createChains, createMonitors, type ChainDeps, type ChainsDependencies } from './chains/index.ts';
import { createDeliveries } from './deliveries/index.ts';
import { createKeys } from './keys/index.ts';
import { createLedger } from './ledger/index.ts';
import { createLimits } from './limits/index.ts';
import { createQuotes } from './quotes/index.ts';
import { createPlatform, createRuns } from './runs/index.ts';

/** Everything the services are built from; each takes only its part of it. */
export interface ServiceWiring extends ChainsDependencies {
  deps: ChainDeps;
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
export type { CatalogService } from './catalog/index.ts';
export type { ChainsService } from './chains/index.ts';
export type { DeliveriesService } from './deliveries/index.ts';
export type { KeysService } from './keys/index.ts';
export type { LedgerService } from './ledger/index.ts';
export type { LimitsService } from './limits/index.ts';
export type { MonitorsService } from './chains/index.ts';
export type { PlatformService } from './runs/index.ts';
export type { QuotesService } from './quotes/index.ts';
export type { RunsService } from './runs/index.ts';
