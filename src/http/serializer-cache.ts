// Compiled response serializers, kept for the life of the process and shared by every route and app
// that asks for the same one. Fastify compiles each route's response schemas with fast-json-stringify
// when an app starts, and most of them are one schema (every error status of every route is the
// problem document): compiling them all again was about 4.4 s of CPU per app start, two thirds of a
// test process's CPU (docs/decisions.md, "Test start-up"). A serializer is a pure
// function of its schema, the shared schemas its $refs resolve against and the serializer options, so
// the key is all three as JSON; a different shared schema or option is a different key, never a stale
// serializer.
import { createHash } from 'node:crypto';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

const compileWithFastJsonStringify = SerializerSelector();
const compiled = new Map<string, Serializer>();

/** Fastify's default serializer factory (fast-json-stringify), with compiled serializers reused. */
export const cachedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = compileWithFastJsonStringify(externalSchemas, options);
  // Computed once per Fastify context that has its own shared schemas: the externals are large.
  const context = createHash('sha256')
    .update(JSON.stringify([externalSchemas ?? null, options ?? null]))
    .digest('base64url');
  return (route) => {
    const key = `${context}:${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (serializer === undefined) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};

/** How many distinct serializers the process has compiled (tests). */
export const compiledSerializerCount = (): number => compiled.size;
