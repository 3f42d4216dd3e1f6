// Two validators: request bodies are checked strictly (a string is never coerced into a number,
// unknown fields are errors, not silently dropped), while path and query values, which arrive as
// text, are coerced to their declared types.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false, keywords: ['kind', 'modifier'] };

const strictAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const coercingAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

/**
 * Shared (named) schemas must be known to both validators as well as to Fastify (which puts them
 * in the OpenAPI document). Schemas are immutable per $id, so a second app in the same process
 * (tests) reuses the first registration.
 */
export function addSharedSchema(app: { addSchema(schema: unknown): unknown; getSchema(id: string): unknown }, schema: { $id?: string }): void {
  const id = schema.$id;
  if (!id) throw new Error('a shared schema needs an $id');
  if (!app.getSchema(id)) app.addSchema(schema);
  for (const ajv of [strictAjv, coercingAjv]) if (!ajv.getSchema(id)) ajv.addSchema(schema as object, id);
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
