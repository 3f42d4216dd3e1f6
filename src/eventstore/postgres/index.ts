// The PostgreSQL adapter: the embedded default (PGlite) and the store on a real server.
import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../../infra/database.js';
import { categoryOf, type EventStore } from '../port.js';
import { appendEvents, isEventIdsAlreadyStored, resolveReappend } from './append.js';
import { appendAll } from './append-all.js';
import { Notifier } from './notifier.js';
import { catchUp } from './catch-up.js';
import * as groups from './consumer-group.js';
import { countAfter, headPosition, readAll, readStream, streamsOfRequest } from './read.js';
import { Wakeup } from './wakeup.js';

export function createPostgresEventStore(handle: DatabaseHandle, opts: { onError?: (err: unknown) => void } = {}): EventStore {
  const { db } = handle;
  const origin = randomUUID();
  const wakeup = new Wakeup(handle, origin);
  const notifier = new Notifier(handle, origin, opts.onError);
  const read = (o: Parameters<typeof readAll>[1]) => readAll(db, o);
  return {
    kind: 'postgres',
    async appendToStream(streamId, events, expected) {
      let result;
      try {
        result = await appendEvents(db, streamId, events, expected);
      } catch (err) {
        if (!isEventIdsAlreadyStored(err)) throw err;
        return resolveReappend(db, streamId, events, expected);
      }
      wakeup.notify({ category: categoryOf(streamId), types: events.map((e) => e.type), position: result.position });
      notifier.nudge();
      return result;
    },
    async appendToStreams(appends) {
      const results = await appendAll(db, appends);
      appends.forEach((a, i) =>
        wakeup.notify({ category: categoryOf(a.streamId), types: a.events.map((e) => e.type), position: results[i]!.position }),
      );
      notifier.nudge();
      return results;
    },
    readStream: (streamId, o) => readStream(db, streamId, o),
    readAll: read,
    headPosition: (filter) => headPosition(db, filter),
    countAfter: (after, filter, cap) => countAfter(db, after, filter, cap),
    streamsOfRequest: (q) => streamsOfRequest(db, q),
    subscribeToAll(o) {
      wakeup.ensureListening(opts.onError);
      return catchUp(read, wakeup, o);
    },
    createConsumerGroup: (group, settings) => groups.createConsumerGroup(db, () => headPosition(db, settings.filter), group, settings),
    subscribeToConsumerGroup(group, o) {
      wakeup.ensureListening(opts.onError);
      return groups.subscribeToConsumerGroup(db, read, wakeup, group, o);
    },
    listParked: (group) => groups.listParked(db, group),
    replayParked: (group) => groups.replayParked(db, group),
    async close() {
      await notifier.close();
      await wakeup.close();
    },
  };
}
