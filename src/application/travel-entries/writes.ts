// The travel-entry application service: what a route asks for (create, import, replace, submit,
// an approver's decision, or any command of a child row) becomes one write for the write path:
// the stream, the decider, a command builder that looks up the facts the command needs (tenant,
// exchange rates, the employee, eligible approvers) and attaches them, and the side effects that
// must wait for a passed decision (entry numbers). Routes parse, call this, and present the result.
// One instance per process (it holds the entry-number queues and the known employees), created by
// the composition root.
import { messagesAt } from '../../domain/shared/field-errors.js';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../../domain/decider.js';
import {
  effectiveEntryDate,
  perDiemAdvanceDate,
  withStoredEntryDate,
  PENDING_ENTRY_NUMBER,
  streamName,
  travelEntryDecider,
  type ItineraryPerDiemRow,
  type RecordedItinerary,
  type TravelEntryDraft,
  type TravelEntryCommand,
  type TravelEntryEvent,
  type TravelEntryState,
} from '../../domain/travel-entries/index.js';
import type { Db } from '../../infra/database.js';
import type { EventStore } from '../../eventstore/port.js';
import type { Tenant } from '../../tenancy/tenants.js';
import { employeeActivity } from '../../../projections/employees/queries.js';
import { activeVehicles } from '../../../projections/vehicles/queries.js';
import { activeCostCenters } from '../../../projections/cost-centers/queries.js';
import type { FieldErrors } from '../../domain/errors.js';
import type { CommandRequest } from '../command-handler.js';
import { RateErrors } from './conversions.js';
import { entryDraft, type StatutoryInputs, type TravelEntryInput } from './drafts.js';
import { EntryNumbers } from './entry-numbers.js';
import { KnownEmployees } from './known-employees.js';
import type { ReadModelGate } from '../read-model-gate.js';
import type { ItineraryInput, PerDiemCalculator } from '../per-diems/calculator.js';
import { isPerDiemLaw, type PerDiemRow } from '../../domain/per-diems/index.js';
import {
  childRowEnabledListErrors,
  enabledListErrors,
  type ChildRowCodes,
  type EnabledLists,
} from '../../domain/travel-entries/enabled-lists.js';
import type { ReferenceNames } from '../../../projections/travel-entries/reference-names.js';

/** What a command builder may look up and report: the tenant, the entry's state, and the facts it found. */
export interface Facts {
  tenant: Tenant;
  state: TravelEntryState;
  ctx: CommandContext;
  rateErrors: RateErrors;
  /** Field errors found by lookups (e.g. an unknown employee). */
  lookupErrors: Record<string, string[]>;
  /** Per-diem rows without a statutory amount (destination or date not in the law's tables). */
  perDiemRateErrors: Record<string, string[]>;
}

/** One travel-entry write, ready for handleCommand (the caller adds correlation id and If-Match). */
export type EntryWrite = Omit<CommandRequest<TravelEntryCommand, TravelEntryState, TravelEntryEvent>, 'correlationId' | 'ifMatch'> & {
  entryId: string;
  /**
   * The codes and names of the vehicle and cost centers the write's own checks found (create,
   * import, replace), so the response needs no second read of them; undefined before the command
   * ran or for writes that look nothing up (the route then reads them).
   */
  referenceNames?: () => ReferenceNames | undefined;
};

/** The entry's references as a write found them: the lookups its checks made, for its response. */
interface ReferenceLookup {
  errors: FieldErrors;
  names: ReferenceNames;
}

/** What an entry write names: its employee, vehicle and cost centers. */
type ReferencedBy = {
  employeeId?: unknown;
  vehicleId?: string | null;
  costCenterAllocations?: readonly { costCenterId: string }[] | null;
};

export interface EntryImportInput extends TravelEntryInput {
  entryNumber: string;
  status: string;
  paidOutAt?: string | null;
}

export type ApproverDecision =
  | { type: 'ApproveTravelEntry'; approverId: string; comment?: string | null }
  | { type: 'RejectTravelEntry' | 'RequestTravelEntryChanges'; approverId: string; reason?: string | null };

export class TravelEntryWrites {
  readonly numbers: EntryNumbers;
  readonly employees: KnownEmployees;

  constructor(
    private readonly db: Db,
    store: EventStore,
    readonly perDiems: PerDiemCalculator,
    private readonly gate: ReadModelGate,
  ) {
    this.numbers = new EntryNumbers(store);
    this.employees = new KnownEmployees(db, gate);
  }

  /** Any command on an entry: the builder's lookups travel in the command as facts the decider judges. */
  command(
    entryId: string,
    ctx: CommandContext,
    tenant: Tenant,
    build: (facts: Facts) => Promise<TravelEntryCommand>,
    opts: { create?: boolean; beforeAppend?: EntryWrite['beforeAppend'] } = {},
  ): EntryWrite {
    return {
      entryId,
      streamId: streamName(entryId),
      decider: travelEntryDecider,
      context: ctx,
      ...(opts.create ? { mustNotExist: true } : { mustExist: { notFoundMessage: 'Travel entry was not found.' } }),
      ...(opts.beforeAppend ? { beforeAppend: opts.beforeAppend } : {}),
      command: async (state) => {
        const facts: Facts = { tenant, state, ctx, rateErrors: new RateErrors(), lookupErrors: {}, perDiemRateErrors: {} };
        const command = await build(facts);
        return {
          ...command,
          facts: { rateErrors: facts.rateErrors.errors, lookupErrors: facts.lookupErrors, perDiemRateErrors: facts.perDiemRateErrors },
        };
      },
    };
  }

  /** A new entry; its number is reserved only once the create passed every check (no gaps). */
  create(ctx: CommandContext, tenant: Tenant, body: TravelEntryInput, correlationId: string): EntryWrite {
    const entryId = randomUUID();
    let year = '';
    let names: ReferenceNames | undefined;
    const write = this.command(
      entryId,
      ctx,
      tenant,
      async (f) => {
        const references = await this.referenceLookup(tenant.id, body);
        names = references.names;
        f.lookupErrors = { ...(await this.employees.errorsFor(tenant.id, body.employeeId)), ...references.errors };
        const draft = await entryDraft(this.db, tenant.country, body, ctx.now, f.rateErrors, this.statutory(f));
        addEnabledListErrors(f, tenant, draft);
        year = effectiveEntryDate(draft, ctx.now).slice(0, 4);
        return { type: 'CreateTravelEntry', data: { entryId, entryNumber: PENDING_ENTRY_NUMBER, entry: draft } };
      },
      {
        create: true,
        ...(this.numbers.atomic
          ? {}
          : {
              beforeAppend: async (events: TravelEntryEvent[]) =>
                withEntryNumber(events, await this.numbers.reserve(ctx, year, entryId, correlationId)),
            }),
      },
    );
    if (!this.numbers.atomic) return { ...write, referenceNames: () => names };
    // The number's reservation and claim are appended with the entry, in one statement.
    const append: EntryWrite['append'] = (decided, chain) =>
      this.numbers.appendCreated(ctx, year, entryId, correlationId, {
        streamId: write.streamId,
        decided,
        chain,
        withNumber: withEntryNumber,
      });
    return { ...write, append, referenceNames: () => names };
  }

  /**
   * A legacy entry with its own number. The number is claimed only once the import passed every check
   * (a refused import holds no number), and before the entry is appended (two imports of one number:
   * one wins, one 409s).
   */
  importEntry(ctx: CommandContext, tenant: Tenant, body: EntryImportInput, correlationId: string): EntryWrite {
    const entryId = randomUUID();
    const { entryNumber, status, paidOutAt, ...rest } = body;
    let names: ReferenceNames | undefined;
    const write = this.command(
      entryId,
      ctx,
      tenant,
      async (f) => {
        const references = await this.referenceLookup(tenant.id, rest);
        names = references.names;
        f.lookupErrors = { ...(await this.employees.errorsFor(tenant.id, rest.employeeId)), ...references.errors };
        const entry = await entryDraft(this.db, tenant.country, rest, ctx.now, f.rateErrors);
        addEnabledListErrors(f, tenant, entry);
        return { type: 'ImportTravelEntry', data: { entryId, entryNumber, status, paidOutAt: paidOutAt ?? null, entry } };
      },
      {
        create: true,
        beforeAppend: async (events) => {
          const imported = events.find((e) => e.type === 'TravelEntryImported');
          if (imported) await this.numbers.claimImported(ctx, imported.data.entryNumber, entryId, correlationId);
        },
      },
    );
    return { ...write, referenceNames: () => names };
  }

  /** A full replacement of the entry's content. */
  replace(ctx: CommandContext, tenant: Tenant, entryId: string, body: TravelEntryInput): EntryWrite {
    let names: ReferenceNames | undefined;
    const write = this.command(entryId, ctx, tenant, async (f) => {
      // An omitted entry date is the stored one (decide-edits.ts), so the advance converts at it.
      const input = f.state.kind === 'Existing' ? withStoredEntryDate(body, f.state.entry) : body;
      const references = await this.referenceLookup(tenant.id, input);
      names = references.names;
      f.lookupErrors = { ...(await this.employees.errorsFor(tenant.id, input.employeeId)), ...references.errors };
      const entry = await entryDraft(this.db, tenant.country, input, ctx.now, f.rateErrors, this.statutory(f));
      addEnabledListErrors(f, tenant, entry);
      return { type: 'ReplaceTravelEntry', data: { entryId, entry } };
    });
    return { ...write, referenceNames: () => names };
  }

  /**
   * All per diems of an entry replaced by the engine's rows for an itinerary, with the entry's
   * advance payment date (the CZ exchange-rate date). A missing or locked entry is refused before
   * the itinerary is computed, so it answers 404 or 409 whatever the stops.
   */
  perDiemsFromItinerary(ctx: CommandContext, tenant: Tenant, entryId: string, body: ItineraryInput): EntryWrite {
    return this.command(entryId, ctx, tenant, async (f) => {
      const entry = f.state.kind === 'Existing' && !f.state.entry.locked ? f.state.entry : null;
      const itinerary: RecordedItinerary = {
        stops: body.stops as RecordedItinerary['stops'],
        meals: (body.meals ?? []) as RecordedItinerary['meals'],
        advancePaymentDate: entry === null ? null : perDiemAdvanceDate(entry, ctx.now),
      };
      if (entry === null || !isPerDiemLaw(tenant.country)) {
        return { type: 'ReplacePerDiemsFromItinerary', data: { entryId, rows: [], itinerary, rateTableRevision: null } };
      }
      const result = await this.perDiems.calculate(tenant.country, {
        stops: body.stops,
        meals: body.meals ?? null,
        advancePaymentDate: itinerary.advancePaymentDate,
      });
      return {
        type: 'ReplacePerDiemsFromItinerary',
        data: {
          entryId,
          rows: result.perDiems.map(storedRow),
          itinerary,
          rateTableRevision: result.rateTables.revision,
        },
      };
    });
  }

  /**
   * Field errors for the organization resources an entry names: its vehicle and each allocation's
   * cost center must be active records of the tenant, and a private vehicle must be the entry's
   * employee's. Keyed `vehicleId` and `costCenterAllocations[i].costCenterId`. With the codes and
   * names of what they found: a write that passes names only active records, exactly those a read
   * shows names for, so its response needs no second read (a read also names archived records,
   * which no passing write can reference).
   */
  async referenceLookup(tenantId: string, body: ReferencedBy): Promise<ReferenceLookup> {
    const errors: FieldErrors = {};
    const allocations = body.costCenterAllocations ?? [];
    // A miss is believed once both read models have caught up with the log (read-model-gate.ts).
    const [vehicles, costCenters] = await this.gate.confirmed(
      ['vehicles', 'cost-centers'],
      () =>
        Promise.all([
          activeVehicles(this.db, tenantId, body.vehicleId ? [body.vehicleId] : []),
          activeCostCenters(
            this.db,
            tenantId,
            allocations.map((a) => a.costCenterId),
          ),
        ]),
      ([v, c]) =>
        (body.vehicleId ? !v.has(body.vehicleId.toLowerCase()) : false) || allocations.some((a) => !c.has(a.costCenterId.toLowerCase())),
    );
    if (body.vehicleId) {
      const vehicle = vehicles.get(body.vehicleId.toLowerCase());
      if (!vehicle) errors.vehicleId = ['No such active vehicle in this company.'];
      else if (vehicle.ownership === 'Private' && vehicle.employeeId?.toLowerCase() !== String(body.employeeId).toLowerCase()) {
        errors.vehicleId = ["A private vehicle must belong to the entry's employee."];
      }
    }
    allocations.forEach((a, i) => {
      if (!costCenters.has(a.costCenterId.toLowerCase()))
        errors[`costCenterAllocations[${i}].costCenterId`] = ['No such active cost center in this company.'];
    });
    // Shaped as projections/travel-entries/reference-names.ts reads them from the same rows.
    const names: ReferenceNames = {
      vehicles: new Map(
        [...vehicles].map(([id, v]) => [id, { registrationNumber: v.registrationNumber, make: v.make ?? null, model: v.model ?? null }]),
      ),
      costCenters: new Map([...costCenters].map(([id, c]) => [id, { code: c.code, name: c.name ?? '' }])),
    };
    return { errors, names };
  }

  /** Field errors for one allocation row (the child route): keyed `costCenterId`. */
  async allocationErrors(tenantId: string, costCenterId: string): Promise<FieldErrors> {
    const found = await this.gate.confirmed(
      ['cost-centers'],
      () => activeCostCenters(this.db, tenantId, [costCenterId]),
      (c) => !c.has(costCenterId.toLowerCase()),
    );
    return found.has(costCenterId.toLowerCase()) ? {} : { costCenterId: ['No such active cost center in this company.'] };
  }

  /** How a write's per diems get their statutory figures, with the problems reported into its facts. */
  statutory(f: Facts): StatutoryInputs {
    const entry = f.state.kind === 'Existing' ? f.state.entry : undefined;
    return {
      calc: this.perDiems,
      problems: { lookupErrors: f.lookupErrors, perDiemRateErrors: f.perDiemRateErrors, rateErrors: f.rateErrors.errors },
      // A row sent back unchanged keeps its figures (per-diems/kept-statutory.ts).
      ...(entry ? { stored: { rows: entry.perDiems, advancePaymentDate: perDiemAdvanceDate(entry, f.ctx.now) } } : {}),
    };
  }

  /**
   * Which of `ids` are active employees of the tenant. A miss is believed once the employees read
   * model has caught up with the log (read-model-gate.ts): an approver registered a moment before,
   * with the projector behind, is not skipped like an inactive one.
   */
  private async activeEmployees(tenantId: string, ids: string[]): Promise<Set<string>> {
    // Only an absent id waits: a former employee named in a workflow is found, inactive, at once.
    const activity = await this.gate.confirmed(
      ['employees'],
      () => employeeActivity(this.db, tenantId, ids),
      (found) => ids.some((id) => !found.has(id)),
    );
    return new Set([...activity].flatMap(([id, active]) => (active ? [id] : [])));
  }

  /** Submission, with the tenant's workflow steps and each step's approvers that are active employees now. */
  submit(ctx: CommandContext, tenant: Tenant, entryId: string): EntryWrite {
    return this.command(entryId, ctx, tenant, async () => {
      const steps = tenant.workflow?.steps ?? [];
      const active = await this.activeEmployees(tenant.id, [...new Set(steps.flatMap((s) => s.approverIds))]);
      return {
        type: 'SubmitTravelEntry',
        data: {
          entryId,
          workflowSteps: steps.map((s, i) => ({
            stepId: `step-${i + 1}`,
            name: `Step ${i + 1}`,
            eligibleApproverIds: s.approverIds.filter((a) => active.has(a)),
          })),
        },
      };
    });
  }

  /** An approver's decision, with whether the approver is an active employee of the tenant now. */
  decide(ctx: CommandContext, tenant: Tenant, entryId: string, decision: ApproverDecision): EntryWrite {
    return this.command(entryId, ctx, tenant, async () => {
      const approverIsActiveEmployee = (await this.activeEmployees(tenant.id, [decision.approverId])).has(decision.approverId);
      const facts = { entryId, approverId: decision.approverId, approverIsActiveEmployee };
      if (decision.type === 'ApproveTravelEntry') return { type: decision.type, data: { ...facts, comment: decision.comment ?? null } };
      return { type: decision.type, data: { ...facts, reason: decision.reason ?? null } };
    });
  }
}

/** An engine row as the entry keeps it: true UTC instants, the wall-clock times beside them. */
function storedRow(r: PerDiemRow): ItineraryPerDiemRow {
  return {
    timeZone: r.timeZone,
    countryCode: r.countryCode,
    departureTime: r.departureTimeUtc,
    arrivalTime: r.arrivalTimeUtc,
    departureTimeLocal: r.departureTime,
    arrivalTimeLocal: r.arrivalTime,
    breakfastsProvided: r.breakfastsProvided,
    lunchesProvided: r.lunchesProvided,
    dinnersProvided: r.dinnersProvided,
    currencyCode: r.currencyCode,
    statutoryAmount: r.amount,
    rate: r.rate,
    units: r.units,
    hours: r.hours,
    mealReduction: r.mealReduction,
    exchangeRate: r.exchangeRate,
    exchangeRateDate: r.exchangeRateDate,
    exchangeRateSource: r.exchangeRateSource as ItineraryPerDiemRow['exchangeRateSource'],
    amountInBaseCurrency: r.amountInBaseCurrency,
    rule: r.rule,
  };
}

/** The created entry's events with its number filled in. */
const withEntryNumber = (events: TravelEntryEvent[], entryNumber: string): TravelEntryEvent[] =>
  events.map((e) => (e.type === 'TravelEntryCreated' ? { ...e, data: { ...e.data, entryNumber } } : e));

const enabledLists = (tenant: Tenant): EnabledLists => ({ countries: tenant.enabledCountries, currencies: tenant.enabledCurrencies });

const addLookupErrors = (f: Facts, errors: FieldErrors): void => {
  for (const [k, v] of Object.entries(errors)) messagesAt(f.lookupErrors, k).push(...v);
};

/** Countries and currencies outside the company's enabled lists are field errors of the write. */
function addEnabledListErrors(f: Facts, tenant: Tenant, draft: TravelEntryDraft): void {
  addLookupErrors(f, enabledListErrors(draft, enabledLists(tenant)));
}

/**
 * The same for one expense or per diem added or changed through its child route: the codes the
 * client named in the row's body, keyed as the body names them (`countryCode`, `currencyCode`).
 */
export function addChildRowEnabledListErrors(f: Facts, row: ChildRowCodes): void {
  addLookupErrors(f, childRowEnabledListErrors(row, enabledLists(f.tenant)));
}
