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

const members = new WeakMap<Schema, [string, Schema][]>();

/** An object schema's members in fast-json-stringify's order (worked out once per schema). */
function membersOf(schema: Schema): [string, Schema][] {
  let list = members.get(schema);
  if (!list) {
    const required = new Set(schema.required ?? []);
    const all = Object.entries(schema.properties ?? {}) as [string, Schema][];
    list = [...all.filter(([k]) => required.has(k)), ...all.filter(([k]) => !required.has(k))];
    members.set(schema, list);
  }
  return list;
}

/**
 * `value` with the members of `schema` only, in the order fast-json-stringify (Fastify's response
 * serializer) writes them: the required ones in the schema's order, then the optional ones (so an
 * entry's `vehicle` comes last). References ($ref) in the entry schemas name string enumerations:
 * taken as they are.
 */
function conform(schema: Schema, value: unknown): unknown {
  // A scalar is written as it is whatever the schema (the entry's values already have their types).
  if (typeof value !== 'object' || value === null) return value;
  if (schema.anyOf) {
    const member = schema.anyOf.find((s) => (s as Schema).type !== 'null') as Schema | undefined;
    return member ? conform(member, value) : value;
  }
  if (schema.type === 'array' && schema.items && Array.isArray(value)) return value.map((v) => conform(schema.items as Schema, v));
  if (schema.type === 'object' && schema.properties && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, s] of membersOf(schema)) {
      const v = source[key];
      if (v !== undefined) out[key] = conform(s, v);
    }
    return out;
  }
  return value;
}

/**
 * An object's members as JSON, each value written by `valueOf` (for the slots) or JSON.stringify.
 * The names are the schema's own (plain identifiers), so they need no escaping.
 */
function objectText(o: Record<string, unknown>, valueOf: (key: string, v: unknown) => string | undefined): string {
  let out = '{';
  for (const k in o) {
    const v = o[k];
    out += `${out.length === 1 ? '' : ','}"${k}":${valueOf(k, v) ?? JSON.stringify(v)}`;
  }
  return `${out}}`;
}

const slot = (kind: 'v' | 'c' | 'n', id: string): string => `${SLOT}${kind}${id}${SLOT}`;

/** Names stand-in: every reference unknown, so the presentation holds each name member (as null) in its place. */
const NO_NAMES: ReferenceNames = { vehicles: new Map(), costCenters: new Map() };

/** The stored text of a live entry: its GET representation with the reference names as slots. */
export function entryJson(entry: TravelEntry): string {
  const presented = conform(TravelEntrySchema, presentTravelEntry({ ...entry, referenceNames: NO_NAMES })) as Record<string, unknown>;
  return objectText(presented, (key, v) => {
    if (key === 'vehicle') return entry.vehicleId && isUuid(entry.vehicleId) ? slot('v', entry.vehicleId) : 'null';
    if (key !== 'costCenterAllocations') return undefined;
    const allocations = (v as Record<string, unknown>[]).map((a) => {
      const id = String(a.costCenterId);
      return objectText(a, (k) => {
        if (k === 'costCenterCode') return isUuid(id) ? slot('c', id) : 'null';
        if (k === 'costCenterName') return isUuid(id) ? slot('n', id) : 'null';
        return undefined;
      });
    });
    return `[${allocations.join(',')}]`;
  });
}

/** What the list stores for a read-model row: the live entry's text, or the tombstone's; none for no row. */
export function storedListJson(state: TravelEntryState): string | null {
  if (state.kind === 'Existing') return entryJson(state.entry);
  if (state.kind === 'Deleted') return JSON.stringify(conform(TravelEntryTombstone, presentTombstone(state.entry, state.deletedAt)));
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
