// What the generated document gains after @fastify/swagger built it from the route schemas: the
// things no single route knows. Stable operationIds, the tag list, descriptions that name the scope
// an operation needs, the convention headers, public health probes, the `webhooks` section with a
// discriminated envelope, servers, and no component schema that nothing references.
import { HEADER_PARAMETERS, RESPONSE_HEADERS, headerPlanOf } from './headers.js';
import { operationIdOf } from './operation-ids.js';
import { TAGS } from './tags.js';
import { envelopeSchemas, webhooksSection } from './webhooks-section.js';

type Json = Record<string, any>;

/** Set by the openapi plugin's onRoute hook: the scope the route's config asks for. */
export const SCOPE_EXTENSION = 'x-required-scope';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export function completeDocument(doc: Json): Json {
  doc.servers = [{ url: '/', description: 'The server that published this document' }];
  doc.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Travelog-Partner-Terms' };
  doc.info.contact = { name: 'Travelog partner support', email: 'partners@travelog.example' };
  doc.tags = TAGS.map((t) => ({ ...t }));
  doc.components.parameters = { ...doc.components.parameters, ...HEADER_PARAMETERS };
  doc.components.headers = { ...doc.components.headers, ...RESPONSE_HEADERS };
  Object.assign(doc.components.schemas, envelopeSchemas());
  doc.webhooks = webhooksSection();

  const paths = doc.paths as Record<string, Record<string, Json>>;
  // Collections whose items can be read (GET /things/{id} exists): their creates answer a Location.
  const readableCollections = new Set(
    Object.keys(paths)
      .filter((p) => paths[p]!.get && /\/\{[^}/]+\}$/.test(p))
      .map((p) => p.slice(0, p.lastIndexOf('/'))),
  );
  for (const [path, ops] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      op.operationId = operationIdOf(method, path);
      describe(op);
      const plan = headerPlanOf(method, path, readableCollections.has(path));
      op.parameters = [
        ...(op.parameters ?? []),
        ...(plan.idempotencyKey ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
        ...(plan.ifMatch ? [{ $ref: '#/components/parameters/IfMatch' }] : []),
        // A read that can answer 304 declares it in its responses (conditional-read.ts).
        ...(method === 'get' && op.responses?.['304'] ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
      ];
      if (op.parameters.length === 0) delete op.parameters;
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        // Errors leave as application/problem+json (problem.ts); the generator names them with the
        // route's media types (JSON, or a download's `produces`).
        const problemBody = Object.values<Json>(response.content ?? {})[0];
        if (/^[45]/.test(status) && problemBody) response.content = { 'application/problem+json': problemBody };
        if (!status.startsWith('2') && status !== '304') continue;
        const headers: Json = { ...response.headers };
        if (plan.etag) headers.ETag = { $ref: '#/components/headers/ETag' };
        if (plan.location && status === '201') headers.Location = { $ref: '#/components/headers/Location' };
        if (plan.idempotencyKey) headers['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
        if (Object.keys(headers).length > 0) response.headers = headers;
      }
    }
  }
  referenceNamedEnums(doc);
  dropUnreferencedSchemas(doc);
  return doc;
}

/**
 * The generator copies a named enum (CountryCode, FuelType…) into every schema that uses it. Exact
 * copies become references again, so SDKs get one named type per allow-list.
 */
function referenceNamedEnums(doc: Json): void {
  const schemas: Json = doc.components.schemas ?? {};
  const byShape = new Map<string, string>();
  for (const [name, schema] of Object.entries<Json>(schemas)) if (Array.isArray(schema.enum)) byShape.set(JSON.stringify(schema), name);
  const visit = (node: unknown, ownName?: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => visit(n));
    if (node === null || typeof node !== 'object') return node;
    const named = byShape.get(JSON.stringify(node));
    if (named && named !== ownName) return { $ref: `#/components/schemas/${named}` };
    for (const [k, v] of Object.entries(node)) (node as Json)[k] = visit(v);
    return node;
  };
  for (const [name, schema] of Object.entries<Json>(schemas)) schemas[name] = visit(schema, name);
  visit(doc.paths);
  visit(doc.webhooks);
}

/** The summary, then the scope: what a partner needs before calling. Public routes say so. */
function describe(op: Json): void {
  const scope: string | undefined = op[SCOPE_EXTENSION];
  delete op[SCOPE_EXTENSION];
  const access = scope ? `Needs an API key with the \`${scope}\` scope.` : 'Public: no API key.';
  if (!scope) op.security = [];
  const lead = op.description ?? (op.summary ? `${String(op.summary).replace(/\.?$/, '.')}` : '');
  op.description = lead ? `${lead}\n\n${access}` : access;
}

function dropUnreferencedSchemas(doc: Json): void {
  const schemas: Json = doc.components.schemas ?? {};
  for (;;) {
    const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: undefined } }) + JSON.stringify(schemas);
    const unused = Object.keys(schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    if (unused.length === 0) return;
    for (const name of unused) delete schemas[name];
  }
}
