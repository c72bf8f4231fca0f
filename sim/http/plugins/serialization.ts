import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serialize = (doc: unknown) => string;

const requireLazily = createRequire(import.meta.url);

/**
 * The serializers built so far in this process, by the text of their schema:
 * every simulator declares the same routes with the same shared schemas, but
 * builds new schema objects for them (declareSharedResponses), so a second
 * simulator (each scenario, each library start) finds its serializers here by
 * text instead of building them again. Measured 2026-11-28: all shipped
 * scenarios in one process took 4.8 s of CPU building them per simulator, 4.45 s
 * with this map (bounded by the routes' distinct schemas).
 */
const built = new Map<string, Serialize>();

/**
 * Fastify's own response serializers (fast-json-stringify), each built when its
 * route first answers with that status rather than at ready(): building them all
 * was most of the time start-up spent in ready(). The built serializer is the very
 * one Fastify would have made, so answers are byte for byte the same.
 */
export function lazySerializers(): SerializerFactory {
  return (externalSchemas, options) => {
    // Loaded, like the serializers, with the first answer that needs one.
    let compile: ReturnType<SerializerFactory> | undefined;
    const compiler = () => {
      const { SerializerSelector } = requireLazily('@fastify/fast-json-stringify-compiler') as typeof import('@fastify/fast-json-stringify-compiler');
      return SerializerSelector()(externalSchemas, options);
    };
    return (route) => {
      let serialize: Serialize | undefined;
      const find = (): Serialize => {
        const text = JSON.stringify(route.schema);
        let found = built.get(text);
        if (!found) built.set(text, (found = (compile ??= compiler())(route) as Serialize));
        return found;
      };
      return (doc: unknown) => (serialize ??= find())(doc);
    };
  };
}
