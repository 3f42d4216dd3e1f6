// The HTTP headers of the API's conventions, declared on the operations that honour them, so SDK
// generators see them: Idempotency-Key on every POST (plugins/idempotency.ts), If-Match on writes
// to an event-sourced resource (command-support.ts), If-None-Match on the reads that answer 304
// (conditional-read.ts), and ETag, Location and Idempotent-Replayed
// on the responses that carry them.

type Json = Record<string, unknown>;

export const HEADER_PARAMETERS: Readonly<Record<string, Json>> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Any client-chosen string (1-255 visible ASCII characters). The first response to a key is stored for 24 hours ' +
      'and replayed for a retry with the same body (marked Idempotent-Replayed); the same key with another body is 422. ' +
      'While the first request under the key may still be running, a retry is 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. ' +
      'A 412 (a stale If-Match) is not stored: a retry with the corrected If-Match runs. ' +
      'A request left unanswered (the server stopped, or answered 5xx) is then judged by the event log: if it changed nothing, ' +
      'the retry runs; if it did, the retry is 409 IDEMPOTENCY_REPLAY_UNAVAILABLE with `resources`, the API paths of what it changed.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    example: 'a2c5e8b0-6d3f-4c1e-9f7a-0b1d2e3f4a5b',
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'The ETag of the revision the client last read: the write is refused with 412 PRECONDITION_FAILED if it is no longer current.',
    schema: { type: 'string', pattern: '^\\s*(W/)?"?\\d{1,9}"?\\s*$' },
    example: '"3"',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'ETags of copies the client holds (or `*`): when one names the current representation, the answer is 304 Not Modified ' +
      'with no body. Compared weakly: `W/"3"` matches `"3"`.',
    schema: { type: 'string', maxLength: 1024 },
    example: '"3"',
  },
};

export const RESPONSE_HEADERS: Readonly<Record<string, Json>> = {
  ETag: {
    description: 'The resource’s revision, for If-Match and conditional reads.',
    schema: { type: 'string' },
    example: '"3"',
  },
  Location: { description: 'Where the created resource is read.', schema: { type: 'string', format: 'uri-reference' } },
  IdempotentReplayed: {
    description: '`true` when this is the stored response to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Resources written through the event-sourced write path, which honours If-Match and answers ETag. */
const EVENT_SOURCED = /^\/api\/v1\/(travel-entries|employees|departments|vehicles|cost-centers|payouts\/batches)(\/|$)/;

export interface HeaderPlan {
  idempotencyKey: boolean;
  ifMatch: boolean;
  etag: boolean;
  location: boolean;
}

/** Which convention headers an operation carries. `hasItemRead`: GET `${path}/{id}` exists. */
export function headerPlanOf(method: string, path: string, hasItemRead: boolean): HeaderPlan {
  const m = method.toLowerCase();
  const write = m === 'post' || m === 'put' || m === 'delete';
  const onItem = /\/\{[^}]+\}/.test(path);
  const eventSourced = EVENT_SOURCED.test(path) && !path.endsWith('/history') && !path.endsWith('/content');
  const itemRead = m === 'get' && eventSourced && /\/\{id\}$/.test(path);
  return {
    idempotencyKey: m === 'post' && path.startsWith('/api/v1/'),
    ifMatch: write && onItem && eventSourced,
    etag: itemRead || (write && eventSourced),
    location: m === 'post' && hasItemRead && !onItem,
  };
}
