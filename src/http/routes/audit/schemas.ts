// Schemas of the auditor surface: a resource's history (one shape for every resource), the state of
// a resource as of a point (the query of the GET-one routes) and the verification of a hash chain.
import { Type } from '@sinclair/typebox';
import { PageQuery, StringEnum } from '../../schemas/common.js';

const Sha256 = Type.String({ description: 'SHA-256, hex.', examples: ['9f2c4e1d0b7a…'] });

export const AuditActor = Type.Object(
  {
    apiKeyId: Type.Union([Type.String(), Type.Null()], { description: 'The API key that sent the command.' }),
    apiKeyName: Type.Union([Type.String(), Type.Null()], { description: "The key's name (from the tenant's keys)." }),
    employeeId: Type.Union([Type.String(), Type.Null()], { description: 'The employee the command acted for.' }),
    system: Type.Union([Type.String(), Type.Null()], { description: 'A system process, when no key acted.' }),
  },
  { $id: 'AuditActor', additionalProperties: false },
);

export const HashStatus = StringEnum(['valid', 'unhashed', 'broken'] as const, {
  $id: 'HashStatus',
  description:
    'valid: the link to the previous event and the hash verify; unhashed: recorded before the hash chain existed (not verified); broken: tampered or missing.',
});

export const AuditHistoryItem = Type.Object(
  {
    revision: Type.Integer({ minimum: 0, description: 'The event’s revision in its stream (the ETag of the resource after it).' }),
    type: Type.String({ examples: ['TravelEntrySubmitted'] }),
    occurredAt: Type.String({ format: 'date-time', description: 'When the command ran.' }),
    recordedAt: Type.String({ format: 'date-time', description: 'When the event store recorded it (what asOf compares).' }),
    actor: Type.Ref('AuditActor'),
    correlationId: Type.String({ description: 'The request id of the call that caused it.' }),
    causationId: Type.String({ description: 'Shared by the events of one decision.' }),
    data: Type.Unknown({ description: 'The event as recorded.' }),
    hash: Type.Union([Sha256, Type.Null()]),
    previousHash: Type.Union([Type.String(), Type.Null()], {
      description:
        'The previous event’s hash; the SHA-256 of nothing for revision 0; `unchained-before-revision-N` after older, unhashed events.',
    }),
    hashValid: Type.Union([Type.Boolean(), Type.Null()], { description: 'null for an event recorded before the hash chain existed.' }),
    hashStatus: Type.Ref('HashStatus'),
  },
  { $id: 'AuditHistoryItem', additionalProperties: false },
);

export const AuditHistoryPage = Type.Object(
  {
    items: Type.Array(Type.Ref('AuditHistoryItem')),
    page: Type.Integer(),
    pageSize: Type.Integer(),
    total: Type.Integer({ description: 'Events recorded for the resource.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Send as `cursor` for the next page; null after the last event.' }),
  },
  { $id: 'AuditHistoryPage', additionalProperties: false },
);

export const HistoryQuery = Type.Object(
  {
    ...PageQuery,
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'The nextCursor of the previous page (instead of page).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The state-as-of parameters of a GET-one route (the audit scope; see docs/auditing.md). */
export const AsOfQuery = {
  asOf: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'The resource as it was at this instant: after its last event recorded (recordedAt in the history) at or before it. ' +
        'A createdAt or editedAt is the command’s time, a few milliseconds before its event was recorded: to read the state ' +
        'a write left, pass the revision its ETag names. Needs the audit scope too.',
      examples: ['2026-11-25T09:30:00Z'],
    }),
  ),
  revision: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: 'The resource as it was right after this revision (immutable: cached for a year). Needs the audit scope too.',
    }),
  ),
};

/** The querystring of a GET-one route: nothing, or one of the state-as-of parameters. */
export const AsOfQuerystring = Type.Object(AsOfQuery, { additionalProperties: false });

export const VerifyQuery = Type.Object(
  {
    streamId: Type.String({
      minLength: 3,
      maxLength: 300,
      pattern: '^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9._:@-]+$',
      description: 'The stream to check: `travelEntry-{id}`, `employee-{id}`, `payoutBatch-{id}`, …',
      examples: ['travelEntry-3f0c8a52-1c1e-4b53-9a53-2f7f1d9f2a10'],
    }),
  },
  { additionalProperties: false },
);

const BrokenLink = Type.Object(
  {
    streamId: Type.String(),
    revision: Type.Integer(),
    field: StringEnum(['previousHash', 'hash', 'revision'] as const, { description: 'What disagrees.' }),
    expected: Type.String({ description: 'What the chain expected there.' }),
    found: Type.Union([Type.String(), Type.Null()], { description: 'What is stored.' }),
  },
  { additionalProperties: false },
);

export const ChainVerification = Type.Object(
  {
    streamId: Type.String(),
    status: StringEnum(['valid', 'unhashed', 'broken'] as const, {
      description:
        'valid: every event hashed and linked; unhashed: no broken link, but events older than the chain; broken: see firstBrokenLink.',
    }),
    events: Type.Integer(),
    hashed: Type.Integer(),
    unhashed: Type.Integer(),
    headRevision: Type.Integer(),
    headHash: Type.Union([Type.String(), Type.Null()], { description: 'Write it down: a later rewrite or truncation changes it.' }),
    firstBrokenLink: Type.Union([BrokenLink, Type.Null()]),
  },
  { $id: 'ChainVerification', additionalProperties: false },
);

export const auditSchemas = [AuditActor, HashStatus, AuditHistoryItem, AuditHistoryPage, ChainVerification];
