// Parked messages. The server writes each parked message as a link event to the stream
// `$persistentsubscription-$all::{group}-parked`, with JSON metadata { added, reason, ... }, and
// stores the nack reason behind its own prefix. The reason sent here is a small JSON object that
// also carries the retry count (the server does not record it). After a replay the server
// truncates the parked stream, so reading it lists what is parked now.
import { BACKWARDS, END, StreamNotFoundError, type EventStoreDBClient, type ResolvedEvent } from '@eventstore/db-client';
import type { ParkedEventInfo } from '../port.js';
import { readEach } from './pull.js';
import { sleep } from './sleep.js';

const SERVER_NAK_PREFIX = "Client explicitly NAK'ed message.\n";
const SERVER_RETRY_LIMIT = /Reached retry count of (\d+)/;
const MAX_REASON = 2000;

export function parkedStreamOf(group: string): string {
  return `$persistentsubscription-$all::${group}-parked`;
}

export function encodeParkReason(reason: string, retryCount: number): string {
  return JSON.stringify({ reason: reason.slice(0, MAX_REASON), retryCount });
}

function decodeParkReason(stored: string): { reason: string; retryCount: number } {
  const text = stored.startsWith(SERVER_NAK_PREFIX) ? stored.slice(SERVER_NAK_PREFIX.length) : stored;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'reason' in parsed && typeof parsed.reason === 'string') {
      const retryCount = 'retryCount' in parsed && typeof parsed.retryCount === 'number' ? parsed.retryCount : 0;
      return { reason: parsed.reason, retryCount };
    }
  } catch {
    // Parked by the server itself (message timeouts) or by another client: plain text.
  }
  const limit = SERVER_RETRY_LIMIT.exec(text);
  return { reason: text, retryCount: limit ? Number(limit[1]) : 0 };
}

export async function listParked(client: EventStoreDBClient, group: string): Promise<ParkedEventInfo[]> {
  const parked: ParkedEventInfo[] = [];
  try {
    await readEach<ResolvedEvent>(client.readStream(parkedStreamOf(group), { resolveLinkTos: true }), ({ event, link }) => {
      // `event` is the parked event itself (resolved from the link); gone when it was deleted.
      if (!event) return true;
      const meta: Record<string, unknown> =
        link?.metadata && typeof link.metadata === 'object' && !(link.metadata instanceof Uint8Array)
          ? (link.metadata as Record<string, unknown>)
          : {};
      const { reason, retryCount } = decodeParkReason(typeof meta.reason === 'string' ? meta.reason : '');
      const added = typeof meta.added === 'string' ? new Date(meta.added) : undefined;
      parked.push({
        eventId: event.id,
        reason,
        retryCount,
        parkedAt: added && !Number.isNaN(added.getTime()) ? added : (link?.created ?? event.created),
      });
      return true;
    });
  } catch (err) {
    if (err instanceof StreamNotFoundError) return [];
    throw err;
  }
  return parked;
}

/**
 * Waits until a message nacked with PARK shows in the parked stream. The server writes the park
 * after the nack, in the background, while it already sends the next message; waiting keeps the
 * PostgreSQL adapter's order (parked before the consumer moves on), so listParked() sees it.
 * Bounded: a slow write only costs the wait, never the message.
 */
export async function awaitParked(client: EventStoreDBClient, group: string, eventId: string, signal?: AbortSignal): Promise<void> {
  const id = eventId.toLowerCase();
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline && !signal?.aborted) {
    let seen = false;
    try {
      const recent = client.readStream(parkedStreamOf(group), {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 20,
        resolveLinkTos: true,
      });
      await readEach<ResolvedEvent>(recent, ({ event }) => {
        seen = event?.id.toLowerCase() === id;
        return !seen;
      });
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
    }
    if (seen) return;
    await sleep(20, signal);
  }
}

/**
 * Asks the server to deliver the parked messages again, ahead of new ones, and returns the ids of
 * those that were parked just before (the server answers nothing). The replay is held in the
 * server's memory until a consumer takes it: a server restart in between loses the replay (the
 * messages are no longer in the parked stream by then), so the ids are what an operator needs to
 * find and re-drive them.
 */
export async function replayParked(client: EventStoreDBClient, group: string): Promise<string[]> {
  const ids = (await listParked(client, group)).map((p) => p.eventId);
  if (ids.length > 0) await client.replayParkedMessagesToAll(group);
  return ids;
}
