// More of the one contract, on consumer groups: a group started at the end, a group created again
// with other settings or another filter, and a consumer that settles runs of events at once.
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import type { EventStore } from '../../src/eventstore/port.js';
import { ev, feedOf, uniqueCategory, until, type ContractSubject } from './contract.js';

function consume(t: Test, store: EventStore, group: string, got: string[]): void {
  const sub = store.subscribeToConsumerGroup(group, {
    consumerName: 'c',
    handler: async ({ event }) => {
      got.push(event.type);
    },
  });
  t.teardown(() => sub.stop());
}

export function eventStoreGroupContract(t: Test, makeSubject: (t: Test) => Promise<ContractSubject>): void {
  t.test('a group started at the end receives only what comes after its creation', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('Before')], 'no_stream');
    await feedOf(store, cat, 1);
    const group = `g-${cat}`;
    await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 3, startFrom: 'end' });
    const got: string[] = [];
    consume(t, store, group, got);
    await store.appendToStream(s, [ev('After')], 0);
    await until(() => got.length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    t.same(got, ['After']);
  });

  t.test('a group created again with other settings keeps working; a new filter reaches the new category', async (t) => {
    const { store, reopen } = await makeSubject(t);
    const cat = uniqueCategory();
    const added = uniqueCategory();
    const group = `g-${cat}`;
    await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 3, startFrom: 'start' });
    await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 5, startFrom: 'start' });
    await store.appendToStream(`${cat}-${randomUUID()}`, [ev('One')], 'no_stream');
    const got: string[] = [];
    consume(t, store, group, got);
    await until(() => got.includes('One'));

    // The catalog gains a category: the group is created again with the wider filter (as a
    // process does at start), and events of the new category arrive.
    const wider = await reopen();
    await wider.createConsumerGroup(group, { filter: { categories: [cat, added] }, maxRetryCount: 5, startFrom: 'start' });
    const got2: string[] = [];
    consume(t, wider, group, got2);
    await wider.appendToStream(`${added}-${randomUUID()}`, [ev('FromTheNewCategory')], 'no_stream');
    await until(() => got.includes('FromTheNewCategory') || got2.includes('FromTheNewCategory'), 20_000);
    t.pass('the new category is delivered');
  });

  t.test('a batch handler settles runs of events; a run it cannot settle goes event by event', async (t) => {
    const { store } = await makeSubject(t);
    const cat = uniqueCategory();
    const group = `g-${cat}`;
    await store.createConsumerGroup(group, { filter: { categories: [cat] }, maxRetryCount: 2, startFrom: 'start' });
    const s = `${cat}-${randomUUID()}`;
    await store.appendToStream(s, [ev('A'), ev('B'), ev('Poison'), ev('C')], 'no_stream');
    const settled: string[] = [];
    const runs: string[][] = [];
    const sub = store.subscribeToConsumerGroup(group, {
      consumerName: 'c',
      handler: async ({ event }) => {
        if (event.type === 'Poison') return { nack: 'park', reason: 'cannot handle' };
        settled.push(event.type);
      },
      handleBatch: async (events) => {
        const types = events.map((e) => e.type);
        runs.push(types);
        if (types.includes('Poison')) throw new Error('one of them cannot be handled');
        settled.push(...types);
      },
    });
    t.teardown(() => sub.stop());
    await until(() => settled.includes('C'));
    await store.appendToStream(s, [ev('D'), ev('E'), ev('F')], 3);
    await until(() => settled.includes('F'));
    await new Promise((r) => setTimeout(r, 200));
    t.same(settled, ['A', 'B', 'C', 'D', 'E', 'F'], 'each event settled once, in order; the one the handler refuses is not');
    t.same(
      (await store.listParked(group)).map((p) => p.reason),
      ['cannot handle'],
      'a run that threw went to the handler event by event: its refusal parked the event',
    );
    // An adapter may never call handleBatch (EventStoreDB hands over one message at a time).
    if (store.kind === 'postgres') {
      t.same(runs[0], ['A', 'B', 'Poison', 'C'], 'the PostgreSQL adapter hands a page over in one call');
      t.ok(
        runs.some((r) => r.join() === 'D,E,F'),
        'and the next run, which it settles',
      );
    }
  });
}
