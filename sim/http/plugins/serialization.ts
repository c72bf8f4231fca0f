import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

const requireLazily = createRequire(import.meta.url);

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
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc: unknown) => (serialize ??= (compile ??= compiler())(route))(doc);
    };
  };
}
