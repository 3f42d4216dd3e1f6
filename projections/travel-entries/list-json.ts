// Issue 13: a travel entry's partner representation kept as ready-to-send JSON text
// (rm_travel_entries.list_json), so the list answers by splicing text instead of parsing each jsonb
// document into objects and serialising them again.
//
// The text is what GET /travel-entries/{id} sends for the entry, byte for byte: the same
// presentation (present.ts) laid out as Fastify's schema serializer lays out the response schema,
// without members the schema does not name. The parts that are not the entry's own
// and change without an entry event, its vehicle and its cost centers' current code and name
// (reference-names.ts), are left as slots: `\u0001v<uuid>\u0001`, `\u0001c<uuid>\u0001` and
// `\u0001n<uuid>\u0001` where a JSON value goes. A serialised JSON text never holds a raw control
// character (JSON.stringify escapes them inside strings), so the slots cannot be confused with content.
import type { TSchema } from '@sinclair/typebox';
import type { TravelEntry, TravelEntryState } from '../../src/domain/travel-entries/index.js';
import { presentTravelEntry } from '../../src/http/routes/travel-entries/present.js';
import { presentTombstone } from '../../src/http/routes/travel-entries/tombstone.js';
import { TravelEntry as TravelEntrySchema, TravelEntryTombstone } from '../../src/http/routes/travel-entries/schemas.js';
import { isUuid } from '../document-queries.js';
import type { ReferenceNames } from './reference-names.js';

const SLOT = '\u0001';

type Schema = TSchema & {
  properties?: Record<string, TSchema>;
  required?: string[];
  items?: TSchema;
  anyOf?: TSchema[];
};

/** Writes a value as JSON text the way fast-json-stringify writes it for one schema. */
type Writer = (value: unknown) => string;

/** Scalars (and enumerations by $ref) are written as they are: the presented values have their types. */
const scalar: Writer = (v) => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'null' : String(v));

/**
 * An object schema's members in fast-json-stringify's (Fastify's response serializer's) order: the
 * required ones in the schema's order, then the optional ones (so an entry's `vehicle` comes last).
 */
function membersOf(schema: Schema): [string, Schema][] {
  const required = new Set(schema.required ?? []);
  const all = Object.entries(schema.properties ?? {}) as [string, Schema][];
  return [...all.filter(([k]) => required.has(k)), ...all.filter(([k]) => !required.has(k))];
}

/**
 * A writer for `schema`, built once: members the schema does not name are left out, members are in
 * membersOf's order, null where the schema allows it. `override` writes some members itself (the
 * slots), by name, at this level only.
 */
function writerOf(schema: Schema, override: Record<string, (v: unknown, o: Record<string, unknown>) => string> = {}): Writer {
  if (schema.anyOf) {
    const member = schema.anyOf.find((x) => (x as Schema).type !== 'null') as Schema | undefined;
    const inner = member ? writerOf(member) : scalar;
    return (v) => (v === null ? 'null' : inner(v));
  }
  if (schema.type === 'array' && schema.items) {
    const item = writerOf(schema.items as Schema);
    return (v) => (Array.isArray(v) ? `[${v.map(item).join(',')}]` : 'null');
  }
  if (schema.type === 'object' && schema.properties) {
    // Member names are the schema's own identifiers: no escaping needed.
    const plan = membersOf(schema).map(([k, x]) => [k, `"${k}":`, override[k], writerOf(x)] as const);
    return (value) => {
      if (value === null || typeof value !== 'object') return 'null';
      const o = value as Record<string, unknown>;
      let out = '';
      for (const [k, head, own, write] of plan) {
        const v = o[k];
        if (v === undefined) continue;
        out += `${out === '' ? '' : ','}${head}${own ? own(v, o) : write(v)}`;
      }
      return `{${out}}`;
    };
  }
  return scalar;
}

const slot = (kind: 'v' | 'c' | 'n', id: string): string => `${SLOT}${kind}${id}${SLOT}`;

/** Names stand-in: every reference unknown, so the presentation holds each name member (as null) in its place. */
const NO_NAMES: ReferenceNames = { vehicles: new Map(), costCenters: new Map() };

const ALLOCATIONS = (TravelEntrySchema.properties.costCenterAllocations as Schema).items as Schema;
const allocationText = writerOf(ALLOCATIONS, {
  costCenterCode: (_, a) => (isUuid(String(a.costCenterId)) ? slot('c', String(a.costCenterId)) : 'null'),
  costCenterName: (_, a) => (isUuid(String(a.costCenterId)) ? slot('n', String(a.costCenterId)) : 'null'),
});
const entryText = writerOf(TravelEntrySchema, {
  vehicle: (_, e) => (typeof e.vehicleId === 'string' && isUuid(e.vehicleId) ? slot('v', e.vehicleId) : 'null'),
  costCenterAllocations: (v) => `[${(v as unknown[]).map(allocationText).join(',')}]`,
});
const tombstoneText = writerOf(TravelEntryTombstone);

/** The stored text of a live entry: its GET representation with the reference names as slots. */
export function entryJson(entry: TravelEntry): string {
  return entryText(presentTravelEntry({ ...entry, referenceNames: NO_NAMES }));
}

/**
 * The version of the stored texts' shape, stamped on each (list_json_version). Raise it in the
 * release that changes what entryJson or the tombstone's text holds (a new member, a renamed
 * one): reads then make every older text again from its document, and never store theirs over a
 * newer one (migration 2026_11_29_0200). Version 1: session 23's shape (per diems' timeZone,
 * approvals' comment).
 */
export const LIST_TEXT_VERSION = 1;

/** What the list stores for a read-model row: the live entry's text, or the tombstone's; none for no row. */
export function storedListJson(state: TravelEntryState): string | null {
  if (state.kind === 'Existing') return entryJson(state.entry);
  if (state.kind === 'Deleted') return tombstoneText(presentTombstone(state.entry, state.deletedAt));
  return null;
}

/** A stored text cut at its slots: even indexes are text, odd ones the slots (`v<uuid>`, `c<uuid>`, `n<uuid>`). */
export const cutAtSlots = (stored: string): string[] => stored.split(SLOT);

/** The ids the slots of some cut texts name (lower case), for one names lookup. */
export function slotIds(cuts: readonly string[][]): { vehicleIds: string[]; costCenterIds: string[] } {
  const vehicles = new Set<string>();
  const costCenters = new Set<string>();
  for (const parts of cuts) {
    for (let i = 1; i < parts.length; i += 2) {
      const s = parts[i]!;
      if (s[0] === 'v') vehicles.add(s.slice(1).toLowerCase());
      else if (s[0] === 'c') costCenters.add(s.slice(1).toLowerCase());
    }
  }
  return { vehicleIds: [...vehicles], costCenterIds: [...costCenters] };
}

const jsonOrNull = (v: string | null | undefined): string => (v === undefined || v === null ? 'null' : JSON.stringify(v));

/** The text with its slots filled from the current names: what GET of the entry answers. */
export function fillSlots(parts: readonly string[], names: ReferenceNames): string {
  if (parts.length === 1) return parts[0]!;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const s = parts[i]!;
    const id = s.slice(1);
    if (s[0] === 'v') {
      const v = names.vehicles.get(id.toLowerCase());
      out += v ? JSON.stringify({ id, registrationNumber: v.registrationNumber, make: v.make, model: v.model }) : 'null';
    } else {
      const c = names.costCenters.get(id.toLowerCase());
      out += jsonOrNull(s[0] === 'c' ? c?.code : c?.name);
    }
    out += parts[i + 1]!;
  }
  return out;
}
