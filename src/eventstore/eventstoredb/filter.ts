// The port's feed filter on EventStoreDB. The server filters $all on ONE dimension, stream names
// or event types (prefixes or a regex), never both at once, so a filter naming both is split: event
// types go to the server, categories are checked here. Every filter also drops system events.
import { eventTypeFilter, excludeSystemEvents, streamNameFilter, type Filter, type Position as EsdbPosition } from '@eventstore/db-client';
import { categoryOf, type FeedFilter } from '../port.js';
import { isSystemEvent } from './events.js';

/** A .NET regex that matches nothing (for an empty list, which the port reads as "no events"). */
const NOTHING = '(?!)';
/** Events the server scans per filtered step (see planFilter). */
export const SEARCH_WINDOW = 1024;

export interface FilterPlan {
  /** What the server applies. */
  readonly server: Filter;
  /** True when the server filter alone is the whole filter (nothing left for the client). */
  readonly serverOnly: boolean;
  /** The whole filter, checked on the client (the server-side part again, which is cheap). */
  matches(e: { streamId: string; type: string }): boolean;
}

export function planFilter(filter: FeedFilter | undefined, checkpointReached?: (position: EsdbPosition) => void): FilterPlan {
  const types = filter?.eventTypes;
  const categories = filter?.categories;
  // Reads and catch-up subscriptions (the callers that follow checkpoints): the server scans at
  // most maxSearchWindow events per step and sends a checkpoint every checkpointInterval steps.
  // Its default window (32) makes a sparse category (a few matches in millions of events) catch
  // up in tiny steps; a wider window scans faster. Consumer groups keep the server's defaults.
  const onCheckpoint = checkpointReached
    ? { maxSearchWindow: SEARCH_WINDOW, checkpointInterval: 1, checkpointReached: (_: unknown, p: EsdbPosition) => checkpointReached(p) }
    : {};
  let server: Filter;
  if (types) server = eventTypeFilter({ regex: exactly(types), ...onCheckpoint });
  else if (categories && categories.length > 0) {
    // Categories are the part of a stream id before the first '-' (port.categoryOf).
    server = streamNameFilter({ prefixes: categories.map((c) => `${c}-`), ...onCheckpoint });
  } else if (categories) server = eventTypeFilter({ regex: NOTHING, ...onCheckpoint });
  else server = excludeSystemEvents(onCheckpoint);
  return {
    server,
    serverOnly: !(types && categories),
    matches: (e) =>
      !isSystemEvent(e) &&
      (types === undefined || types.includes(e.type)) &&
      (categories === undefined || categories.includes(categoryOf(e.streamId))),
  };
}

/** An anchored alternation: the server's prefix filter would also match longer type names. */
function exactly(values: readonly string[]): string {
  if (values.length === 0) return NOTHING;
  return `^(?:${values.map((v) => v.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|')})$`;
}
