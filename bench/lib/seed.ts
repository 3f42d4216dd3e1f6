// Realistic domain events for seeding: employee and travel-entry histories recorded by the
// deciders themselves (so projections fold them exactly as production events), interleaved the way
// concurrent clients would produce them, and bulk-inserted into the adapter's own tables.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CommandContext, DomainEvent } from '../../src/domain/decider.js';
import { employeeDecider, streamName as employeeStream } from '../../src/domain/employees/index.js';
import {
  travelEntryDecider,
  streamName as entryStream,
  type ExpenseDraft,
  type PerDiemDraft,
  type TravelEntryCommand,
  type TravelEntryDraft,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../src/domain/travel-entries/index.js';
import type { EmployeeState, EmployeeEvent, EmployeeFields } from '../../src/domain/employees/index.js';
import { categoryOf, type EventMetadata, type NewEvent } from '../../src/eventstore/port.js';

export interface SeedEvent {
  eventId: string;
  streamId: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

const baseTime = Date.parse('2026-03-01T08:00:00.000Z');
let clock = 0;
const nextInstant = (): string => new Date(baseTime + (clock += 1000)).toISOString();

function context(tenantId: string, apiKeyId: string): CommandContext {
  return { tenantId, now: nextInstant(), newId: randomUUID, actor: { apiKeyId } };
}

export function employeeFields(i: number): EmployeeFields {
  return {
    firstName: `Ana${i}`,
    lastName: 'Horvat',
    email: `ana.horvat${i}@example.hr`,
    phone: '+385 1 234 5678',
    address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', countryCode: 'HR' },
    taxId: '12345678903',
    bankAccountNumber: 'HR1210010051863000160',
    bankIdentifierCode: 'ZABAHR2X',
    position: 'Engineer',
    departmentId: 'dep-1',
    status: 'Active',
    isAccountOwner: false,
    residency: 'Resident',
  };
}

const expense = (i: number): ExpenseDraft => ({
  date: '2026-03-02',
  category: i % 2 ? 'Accommodation' : 'Taxi',
  description: i % 2 ? 'Hotel' : 'Airport transfer',
  amount: i % 2 ? '120.00' : '35.50',
  currencyCode: 'EUR',
  exchangeRate: null,
  exchangeRateSource: null,
  amountInBaseCurrency: i % 2 ? '120.00' : '35.50',
});

/** `later`: the row an entry adds after its create, after the first one's hours (one time is paid once). */
const perDiem = (later = false): PerDiemDraft => ({
  countryCode: 'AT',
  departureTime: later ? '2026-03-03T20:00:00Z' : '2026-03-02T06:00:00Z',
  arrivalTime: later ? '2026-03-04T20:00:00Z' : '2026-03-03T20:00:00Z',
  breakfastsProvided: 1,
  lunchesProvided: 1,
  dinnersProvided: 0,
  amount: '70.00',
  currencyCode: 'EUR',
  exchangeRateSource: null,
});

export function entryDraft(employeeId: string): TravelEntryDraft {
  return {
    entryDate: '2026-03-01',
    employeeId,
    departureDate: '2026-03-02',
    returnDate: '2026-03-03',
    departureLocation: 'Zagreb',
    destination: 'Wien',
    travelType: 'Foreign',
    purpose: 'Customer workshop',
    report: 'Went well',
    advancePayment: '200.00',
    currencyCode: 'EUR',
    manualAdvanceExchangeRate: null,
    advancePaymentInBaseCurrency: '200.00',
    advancePaymentExchangeRateSource: null,
    expenses: [expense(1)],
    perDiems: [perDiem()],
    costCenterAllocations: [
      { costCenterId: 'CC-1', share: '60' },
      { costCenterId: 'CC-2', share: '40' },
    ],
  };
}

interface Pending<S, E extends DomainEvent> {
  streamId: string;
  tenantId: string;
  state: S;
  revision: number;
  fold: (s: S, e: E) => S;
}

function record<S, E extends DomainEvent>(p: Pending<S, E>, events: E[], ctx: CommandContext, out: SeedEvent[]): void {
  const causationId = randomUUID();
  for (const e of events) {
    p.state = p.fold(p.state, e);
    out.push({
      eventId: randomUUID(),
      streamId: p.streamId,
      revision: ++p.revision,
      type: e.type,
      data: e.data,
      metadata: { tenantId: p.tenantId, actor: ctx.actor, correlationId: causationId, causationId, occurredAt: ctx.now },
    });
  }
}

/**
 * One block of activity in one tenant: `entries` travel entries (create, two expenses added, a per
 * diem added, submitted and auto-approved: 6 events each) by entries/2 employees (registered,
 * then updated: 2 events each). Commands of the block are interleaved, as concurrent clients do.
 */
export function activityBlock(tenantId: string, entries: number, firstNumber: number): SeedEvent[] {
  const out: SeedEvent[] = [];
  const apiKeyId = randomUUID();
  const employees: Pending<EmployeeState, EmployeeEvent>[] = [];
  const employeeCount = Math.max(1, Math.floor(entries / 2));
  for (let i = 0; i < employeeCount; i++) {
    const employeeId = randomUUID();
    const p: Pending<EmployeeState, EmployeeEvent> = {
      streamId: employeeStream(employeeId),
      tenantId,
      state: employeeDecider.initialState(),
      revision: -1,
      fold: employeeDecider.evolve,
    };
    const ctx = context(tenantId, apiKeyId);
    record(
      p,
      employeeDecider.decide(
        { type: 'RegisterEmployee', data: { employeeId, fields: employeeFields(i), customFieldDefinitions: [] } },
        p.state,
        ctx,
      ),
      ctx,
      out,
    );
    employees.push(p);
  }
  const list: { id: string; p: Pending<TravelEntryState, TravelEntryEvent> }[] = [];
  for (let i = 0; i < entries; i++) {
    const id = randomUUID();
    const employee = employees[i % employees.length]!;
    const employeeId = employee.streamId.slice('employee-'.length);
    const p: Pending<TravelEntryState, TravelEntryEvent> = {
      streamId: entryStream(id),
      tenantId,
      state: travelEntryDecider.initialState(),
      revision: -1,
      fold: travelEntryDecider.evolve,
    };
    const ctx = context(tenantId, apiKeyId);
    const entryNumber = `2026-${String(firstNumber + i).padStart(5, '0')}`;
    record(
      p,
      travelEntryDecider.decide(
        { type: 'CreateTravelEntry', data: { entryId: id, entryNumber, entry: entryDraft(employeeId) } },
        p.state,
        ctx,
      ),
      ctx,
      out,
    );
    list.push({ id, p });
  }
  const step = (command: (entryId: string) => TravelEntryCommand): void => {
    for (const { id, p } of list) {
      const ctx = context(tenantId, apiKeyId);
      record(p, travelEntryDecider.decide(command(id), p.state, ctx), ctx, out);
    }
  };
  step((entryId) => ({ type: 'AddExpense', data: { entryId, expense: expense(2) } }));
  for (const [i, p] of employees.entries()) {
    const ctx = context(tenantId, apiKeyId);
    const fields = { ...employeeFields(i), position: 'Senior engineer' };
    const employeeId = p.streamId.slice('employee-'.length);
    record(
      p,
      employeeDecider.decide({ type: 'ReplaceEmployee', data: { employeeId, fields, customFieldDefinitions: [] } }, p.state, ctx),
      ctx,
      out,
    );
  }
  step((entryId) => ({ type: 'AddExpense', data: { entryId, expense: expense(3) } }));
  step((entryId) => ({ type: 'AddPerDiem', data: { entryId, perDiem: perDiem(true) } }));
  step((entryId) => ({ type: 'SubmitTravelEntry', data: { entryId, workflowSteps: [] } }));
  return out;
}

/** A stored row as bulkInsert writes it (data and metadata already serialized). */
export interface SeedRow {
  eventId: string;
  streamId: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

const toRow = (e: SeedEvent): SeedRow => ({
  eventId: e.eventId,
  streamId: e.streamId,
  revision: e.revision,
  type: e.type,
  data: JSON.stringify(e.data),
  metadata: JSON.stringify(e.metadata),
});

/**
 * Seeds at least `count` decider-recorded events (every stream consistent, as projections need),
 * in blocks of `entriesPerBlock` entries spread over `tenants` tenants, one bulk INSERT per block.
 * Returns the number of events written.
 */
export async function seedActivity(
  pool: pg.Pool,
  count: number,
  opts: { tenants?: number; entriesPerBlock?: number } = {},
): Promise<number> {
  const tenants = Array.from({ length: opts.tenants ?? 10 }, () => randomUUID());
  const perBlock = opts.entriesPerBlock ?? 500;
  let written = 0;
  let pending: Promise<void> = Promise.resolve();
  for (let b = 0; written < count; b++) {
    // Generate the next block while the previous one is being inserted.
    const rows = activityBlock(tenants[b % tenants.length]!, perBlock, 1 + Math.floor(b / tenants.length) * perBlock).map(toRow);
    written += rows.length;
    await pending;
    pending = bulkInsert(pool, rows);
  }
  await pending;
  return written;
}

/**
 * Seeds at least `count` events fast: one decider-recorded block serialized once, then copied
 * with fresh event ids and stream ids (payloads byte-identical to real ones, ids inside the data
 * repeated). Good for feed reads, which never look inside the data; not for projections.
 */
export async function seedCloned(pool: pg.Pool, count: number, opts: { concurrency?: number } = {}): Promise<number> {
  const template = activityBlock(randomUUID(), 500, 1).map(toRow);
  let written = 0;
  const copy = (): SeedRow[] => {
    const streams = new Map<string, string>();
    return template.map((r) => {
      let streamId = streams.get(r.streamId);
      if (!streamId) streams.set(r.streamId, (streamId = `${r.streamId.slice(0, r.streamId.indexOf('-'))}-${randomUUID()}`));
      return { ...r, eventId: randomUUID(), streamId };
    });
  };
  const worker = async (): Promise<void> => {
    while (written < count) {
      const rows = copy();
      written += rows.length;
      await bulkInsert(pool, rows);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 2 }, worker));
  return written;
}

/** One INSERT of many events in the given order (and their stream rows), in one transaction. */
export async function bulkInsert(pool: pg.Pool, rows: readonly SeedRow[]): Promise<void> {
  const cols = {
    id: [] as string[],
    stream: [] as string[],
    category: [] as string[],
    revision: [] as number[],
    type: [] as string[],
    data: [] as string[],
    metadata: [] as string[],
  };
  const heads = new Map<string, number>();
  for (const e of rows) {
    cols.id.push(e.eventId);
    cols.stream.push(e.streamId);
    cols.category.push(categoryOf(e.streamId));
    cols.revision.push(e.revision);
    cols.type.push(e.type);
    cols.data.push(e.data);
    cols.metadata.push(e.metadata);
    heads.set(e.streamId, Math.max(heads.get(e.streamId) ?? -1, e.revision));
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `
      insert into es_events (event_id, stream_id, category, revision, type, data, metadata)
      select id, stream, category, revision, type, data, metadata
      from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::jsonb[])
        with ordinality as t(id, stream, category, revision, type, data, metadata, n)
      order by n`,
      [cols.id, cols.stream, cols.category, cols.revision, cols.type, cols.data, cols.metadata],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** A realistic single event for append benchmarks (an expense added to an entry). */
export function sampleEvent(tenantId: string): NewEvent {
  const e = activityBlock(tenantId, 1, 1).find((x) => x.type === 'TravelEntryExpenseAdded')!;
  return { id: e.eventId, type: e.type, data: e.data, metadata: e.metadata };
}
