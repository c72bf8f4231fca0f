import { ASSETS } from '../catalog/index.ts';
import type { Deps } from '../context.ts';
import { currentFaults, setFaults, type Faults } from './faults.ts';
import { platformQueue } from './platform-queue.ts';
import { LIMITS } from '../limits/index.ts';
import type { LimitsService } from '../limits/index.ts';

/** What the platform as a whole publishes (GET /v1/capabilities) and the faults the control API injects. */
export function createPlatform(deps: Deps, limits: LimitsService) {
  return {
    capabilities: () => ({
      environment: deps.env,
      apiVersion: '1.2.0-local',
      queue: platformQueue(deps),
      limits: {
        requestBodyBytes: 262144,
        requestsPerClientAddressPerMinute: LIMITS.perClientAddressPerMinute,
        quoteCreationsPerAddressPerMinute: LIMITS.quoteCreationsPerAddressPerMinute,
        monitorCreationsPerMinute: LIMITS.monitorCreationsPerMinute,
        activeRunsPerAccount: LIMITS.activeRunsPerAccount,
        runsPerAccountPer24h: LIMITS.runsPerAccountPer24h,
        quoteLifetimeSeconds: 240,
        rateLimitsEnforced: limits.enforced,
      },
      profiles: Object.values(ASSETS).map((a) => ({
        profile: a.profile,
        assetId: a.assetId,
        currencyLabel: a.currencyLabel,
        rail: a.rail,
        available: !(a.profile === 'sim' && deps.env === 'production'),
      })),
    }),
    faults: () => currentFaults(deps),
    setFaults: (change: Partial<Faults>) => setFaults(deps, change),
  };
}

export type PlatformService = ReturnType<typeof createPlatform>;
