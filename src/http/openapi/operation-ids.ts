// Stable operationIds, derived from the method and the path so that every route has one without
// each route file spelling it out, and a new route gets one by the same rule. Paths are the API's
// contract already, so a name derived from them changes only when the contract does. The rule:
//   GET /things → listThings; GET /things/{id} → getThing; POST /things → createThing;
//   PUT /things/{id} → replaceThing; DELETE /things/{id} → deleteThing;
//   POST /things/{id}/approve → approveThing; GET /things/{id}/history → getThingHistory;
//   nested collections read as "Thing Child" (createTravelEntryExpense).
// A few names read better spelled out (OVERRIDES); a test holds every id unique.

const OVERRIDES: Readonly<Record<string, string>> = {
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /api/v1/company': 'getCompany',
  'POST /api/v1/travel-entries/import': 'importTravelEntry',
  'POST /api/v1/travel-entries/{id}/per-diems/from-itinerary': 'replaceTravelEntryPerDiemsFromItinerary',
  'GET /api/v1/travel-entries/{id}/attachments/{attachmentId}/content': 'downloadTravelEntryAttachment',
  'POST /api/v1/travel-entries/{id}/attachments': 'uploadTravelEntryAttachments',
  'POST /api/v1/travel-entries/{id}/exports': 'recordTravelEntryExport',
  'POST /api/v1/travel-entries/{id}/per-diems/compute': 'computeTravelEntryPerDiemsRemoved',
  'POST /api/v1/per-diems/calculate-simple': 'calculateSimplePerDiemsRemoved',
  'POST /api/v1/utilities/per-diems/calculate': 'calculatePerDiems',
  'GET /api/v1/payouts/ready': 'listEntriesReadyForPayout',
  'POST /api/v1/payouts/batches': 'createPayoutBatch',
  'GET /api/v1/payouts/batches': 'listPayoutBatches',
  'GET /api/v1/payouts/batches/{id}': 'getPayoutBatch',
  'DELETE /api/v1/payouts/batches/{id}': 'deletePayoutBatch',
  'POST /api/v1/webhooks/{id}/recover': 'recoverWebhookDeliveries',
  'GET /api/v1/audit/verify': 'verifyAuditChain',
  'GET /api/v1/events': 'listEvents',
  'GET /api/v1/events/{id}': 'getEvent',
  'POST /api/v1/webhooks/{id}/rotate-secret': 'rotateWebhookSecret',
  'POST /api/v1/travel-entries/{id}/request-changes': 'requestTravelEntryChanges',
};

/** Path words that group operations without naming a resource (/reference/countries → listCountries). */
const NAMESPACES = new Set(['reference', 'utilities']);

const VERBS_BY_METHOD: Readonly<Record<string, { collection: string; item: string }>> = {
  get: { collection: 'list', item: 'get' },
  post: { collection: 'create', item: 'create' },
  put: { collection: 'replace', item: 'replace' },
  patch: { collection: 'update', item: 'update' },
  delete: { collection: 'delete', item: 'delete' },
};

export function operationIdOf(method: string, path: string): string {
  const override = OVERRIDES[`${method.toUpperCase()} ${path}`];
  if (override) return override;
  const segments = path
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter((s) => s !== '' && !NAMESPACES.has(s));
  const last = segments[segments.length - 1] ?? '';
  const endsOnItem = last.startsWith('{');
  const nouns = segments.filter((s) => !s.startsWith('{'));
  const verbs = VERBS_BY_METHOD[method.toLowerCase()] ?? { collection: method.toLowerCase(), item: method.toLowerCase() };
  // A last word after an item that is not a collection is an action (submit, approve, retry…).
  const isAction = !endsOnItem && segments.length >= 2 && segments[segments.length - 2]!.startsWith('{') && !isPlural(last);
  if (isAction) {
    const subject = nouns.slice(0, -1).map(singular);
    const verb = camel(last);
    return method.toLowerCase() === 'get' ? `get${pascal(subject)}${pascal([last])}` : `${verb}${pascal(subject)}`;
  }
  if (endsOnItem) return `${verbs.item}${pascal(nouns.map(singular))}`;
  const owners = nouns.slice(0, -1).map(singular);
  const collection = method.toLowerCase() === 'get' ? last : singular(last);
  return `${verbs.collection}${pascal([...owners, collection])}`;
}

function isPlural(word: string): boolean {
  return word.endsWith('s');
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function camel(word: string): string {
  const p = pascal([word]);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

function pascal(words: readonly string[]): string {
  return words
    .flatMap((w) => w.split('-'))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
