// A reference to a named ($id) schema that keeps its static type. `Type.Ref('Name')` alone types as
// `unknown`, so routes had to cast their bodies; `ref(Schema)` emits the same `{ $ref: 'Name' }`
// (the OpenAPI document keeps one component per shape) while Fastify's TypeBox provider infers
// `Static<typeof Schema>` for the request body or reply.
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

export function ref<T extends TSchema & { $id?: string }>(schema: T): TUnsafe<Static<T>> {
  if (!schema.$id) throw new Error('ref() needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}
