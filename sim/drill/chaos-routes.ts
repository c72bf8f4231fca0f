import type { FastifyInstance } from 'fastify';
import { errors } from '../domain/errors.ts';
import type { ChaosEngine } from './chaos.ts';
import { parseProfile, ProfileError } from './profiles.ts';

/** Contract: PUT /sim/chaos sets the chaos in force, GET /sim/chaos shows it. */
const hide = { hide: true, tags: ['control'] };

export function chaosRoutes(app: FastifyInstance, chaos: ChaosEngine): void {
  app.get('/sim/chaos', { schema: hide, handler: async () => chaos.view() });

  app.put('/sim/chaos', {
    schema: hide,
    handler: async (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.invalidInput("body: an object { profile, seed? }; profile null lifts the chaos.");
      for (const name of Object.keys(body)) if (name !== 'profile' && name !== 'seed') throw errors.invalidInput(`body.${name}: not a field of PUT /sim/chaos (profile, seed).`);
      if (!('profile' in body)) throw errors.invalidInput("body.profile: required: 'calm', 'flaky', 'storm', a profile object, or null.");
      if (body.seed !== undefined && !(typeof body.seed === 'string' && body.seed.length >= 1 && body.seed.length <= 100) && !Number.isSafeInteger(body.seed)) {
        throw errors.invalidInput('body.seed: a whole number or text of 1 to 100 characters.');
      }
      try {
        const profile = body.profile === null ? null : parseProfile(body.profile, 'body.profile');
        const seed = body.seed === undefined ? undefined : String(body.seed);
        chaos.set(profile && seed !== undefined ? { ...profile, seed } : profile);
      } catch (error) {
        if (error instanceof ProfileError) throw errors.invalidInput(error.message);
        throw error;
      }
      return chaos.view();
    },
  });
}
