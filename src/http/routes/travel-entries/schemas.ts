// Travel-entry request and response schemas.
import type { ErrorCode } from '../../../domain/error-codes.js';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TRAVEL_ENTRY_STATUSES, TRAVEL_TYPES, IMPORT_STATUSES } from '../../../domain/travel-entries/index.js';
import { EXPORT_STATUSES } from '../../../domain/travel-entries/commands.js';
import { EXCHANGE_RATE_SOURCES } from '../../../domain/shared/exchange-rate-source.js';
import { PageQuery, StringEnum, Uuid } from '../../schemas/common.js';
import { CursorQuery, listPageOf } from '../../cursor.js';
import { EXPORT_SYSTEM_PATTERN } from '../../../domain/travel-entries/decide-export.js';
import { Money, moneyIn, RateIn } from '../../schemas/money.js';
import { ref } from '../../schemas/ref.js';
import type * as Input from '../../../application/travel-entries/drafts.js';

const Opt = <T extends TSchema>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Text = (max: number) => Type.String({ maxLength: max });
/** A vehicle's or cost center's id: any text is looked up (and refused unless it names one), lower-cased first as a Uuid is. */
const ReferenceText = (options: { minLength?: number } = {}) => Type.String({ ...options, maxLength: 100, 'x-lowercase': true });
const DateStr = Type.String({ format: 'date', description: 'yyyy-MM-dd' });
const Instant = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC instant, ending in Z (2026-03-01T08:00:00Z); a time with another offset is refused in requests.',
});
const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 code of a currency (not a metal, fund or test code), or a former one of the region: HRK, SIT, SKK.',
});
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });

export const TravelEntryStatus = StringEnum(TRAVEL_ENTRY_STATUSES, { $id: 'Status', description: 'Workflow status of a travel entry.' });
export const TravelType = StringEnum(TRAVEL_TYPES, { $id: 'TravelType' });
export const ExchangeRateSource = StringEnum(EXCHANGE_RATE_SOURCES, { $id: 'ExchangeRateSource' });

export const ExpenseInput = Type.Object(
  {
    id: Opt(Uuid),
    date: DateStr,
    category: Text(100),
    description: Opt(Text(1000)),
    amount: moneyIn('More than 0, at most 2 decimal places.'),
    currencyCode: Currency,
    manualExchangeRate: Opt(RateIn),
  },
  { additionalProperties: false, $id: 'ExpenseInput' },
);

const MealDay = Type.Object(
  {
    date: DateStr,
    breakfastsProvided: Opt(Type.Integer({ minimum: 0, maximum: 10 })),
    lunchesProvided: Opt(Type.Integer({ minimum: 0, maximum: 10 })),
    dinnersProvided: Opt(Type.Integer({ minimum: 0, maximum: 10 })),
  },
  { additionalProperties: false },
);

export const PerDiemInput = Type.Object(
  {
    id: Opt(Uuid),
    countryCode: Country,
    departureTime: Instant,
    arrivalTime: Instant,
    breakfastsProvided: Opt(Type.Integer({ minimum: 0, maximum: 1000 })),
    lunchesProvided: Opt(Type.Integer({ minimum: 0, maximum: 1000 })),
    dinnersProvided: Opt(Type.Integer({ minimum: 0, maximum: 1000 })),
    mealsProvided: Opt(
      Type.Integer({ minimum: 0, maximum: 2000, description: 'Legacy aggregate; used only when the per-meal counts are absent.' }),
    ),
    mealsProvidedAllocation: Opt(Type.Array(MealDay, { maxItems: 366 })),
    amount: Opt(
      moneyIn(
        'Not negative, at most 2 decimal places. Accepted for compatibility and never trusted: the statutory engine computes the amount (statutoryAmount).',
      ),
    ),
    currencyCode: Opt({ ...Currency, description: "Accepted for compatibility: the statutory rate's currency is stored." }),
    timeZone: Opt(Type.String({ maxLength: 64, description: 'IANA zone of the country; needed only where it has several (US, ES, …).' })),
    overrideAmount: Opt(
      moneyIn('Not negative, at most 2 decimal places. Replaces the statutory amount (with overrideReason); both are returned.'),
    ),
    overrideReason: Opt(Text(500)),
    manualExchangeRate: Opt(RateIn),
  },
  {
    additionalProperties: false,
    $id: 'PerDiemInput',
    description: "One leg in one country, computed by the company law's statutory engine as a one-leg itinerary.",
  },
);

export const AllocationInput = Type.Object(
  {
    id: Opt(Uuid),
    costCenterId: ReferenceText({ minLength: 1 }),
    share: moneyIn('A percentage of the entry: more than 0, at most 100, at most 4 decimal places (33.3333).'),
  },
  { additionalProperties: false, $id: 'CostCenterAllocationInput' },
);

const entryFields = {
  entryDate: Opt(DateStr),
  employeeId: Uuid,
  departureDate: DateStr,
  returnDate: DateStr,
  departureLocation: Opt(Text(200)),
  departureLocationPlaceId: Opt(Text(300)),
  destination: Opt(Text(200)),
  destinationPlaceId: Opt(Text(300)),
  destinationCountryCode: Opt(Country),
  travelType: TravelType,
  purpose: Opt(Text(1000)),
  report: Opt(Text(10000)),
  preApprovalNote: Opt(Text(2000)),
  vehicleId: Opt(ReferenceText()),
  advancePayment: Opt(moneyIn('Not negative, at most 2 decimal places.')),
  currencyCode: Currency,
  advancePaymentDate: Opt(DateStr),
  manualAdvanceExchangeRate: Opt(RateIn),
  expenses: Opt(Type.Array(ref(ExpenseInput), { maxItems: 500 })),
  perDiems: Opt(Type.Array(ref(PerDiemInput), { maxItems: 500 })),
  costCenterAllocations: Opt(Type.Array(ref(AllocationInput), { maxItems: 100 })),
};

export const TravelEntryInput = Type.Object(entryFields, { additionalProperties: false, $id: 'TravelEntryInput' });

export const TravelEntryImportInput = Type.Object(
  {
    ...entryFields,
    entryNumber: Type.String({
      minLength: 1,
      maxLength: 40,
      description:
        "The legacy system's number: `YYYY-NNNNN` with the entry date's year (e.g. 2026-00042), or a legacy number " +
        '(a letter, then ASCII letters and digits in groups joined by - / . or _, e.g. LEG-2021-7); anything else is a 400 keyed by ' +
        'entryNumber. Unique per company across created and imported entries (case-insensitive): a number another entry holds is a ' +
        '409 ENTRY_NUMBER_TAKEN. Created entries skip numbers that imports hold.',
    }),
    status: StringEnum(IMPORT_STATUSES),
    paidOutAt: Opt(Instant),
  },
  { additionalProperties: false, $id: 'TravelEntryImportInput' },
);

const Expense = Type.Object({
  id: Uuid,
  date: DateStr,
  category: Type.String(),
  description: Nullable(Type.String()),
  amount: Money,
  currencyCode: Type.String(),
  manualExchangeRate: Nullable(Type.Number()),
  exchangeRate: Nullable(Type.Number()),
  exchangeRateSource: Nullable(ref(ExchangeRateSource)),
  amountInBaseCurrency: Money,
});
const PerDiem = Type.Object({
  id: Uuid,
  countryCode: Type.String(),
  departureTime: Instant,
  arrivalTime: Instant,
  breakfastsProvided: Type.Integer(),
  lunchesProvided: Type.Integer(),
  dinnersProvided: Type.Integer(),
  mealsProvided: Type.Integer({ description: 'Derived: lunchesProvided + dinnersProvided.' }),
  mealsProvidedAllocation: Nullable(
    Type.Array(
      Type.Object({ date: DateStr, breakfastsProvided: Type.Integer(), lunchesProvided: Type.Integer(), dinnersProvided: Type.Integer() }),
    ),
  ),
  amount: Money,
  currencyCode: Type.String(),
  overrideAmount: Nullable(Money),
  overrideReason: Nullable(Type.String()),
  manualExchangeRate: Nullable(Type.Number()),
  exchangeRateSource: Nullable(ref(ExchangeRateSource)),
  statutoryAmount: Nullable({
    ...Money,
    description: "The engine's amount; amount is overrideAmount when set, else this. Null: a legacy row stored as given.",
  }),
  rate: Nullable(Money),
  units: Nullable(Type.Number()),
  hours: Nullable(Type.Number()),
  mealReduction: Nullable(Money),
  departureTimeLocal: Nullable(Type.String({ description: "The caller's wall-clock time of the departure in the row's country." })),
  arrivalTimeLocal: Nullable(Type.String()),
  timeZone: Nullable(
    Type.String({
      description:
        "The IANA zone the row was computed in: its country's, in which departureTimeLocal is read. Send it back on a full replacement (a country with several zones needs it). Null on rows computed before it was recorded.",
    }),
  ),
  exchangeRate: Nullable(Type.Number()),
  exchangeRateDate: Nullable(DateStr),
  amountInBaseCurrency: Nullable(Money),
  rule: Nullable(Type.String({ description: 'The rule that decided the amount.' })),
  rateTableRevision: Nullable(Type.Integer({ description: "Revision of the law's imported rate tables used; null: shipped." })),
});
const Allocation = Type.Object({
  id: Uuid,
  costCenterId: Type.String(),
  share: Type.Number({ description: 'Percent of the entry.' }),
  costCenterCode: Type.Optional(Nullable(Type.String({ description: 'The cost center’s current code (null: no such cost center).' }))),
  costCenterName: Type.Optional(Nullable(Type.String({ description: 'The cost center’s current name.' }))),
});
/** The entry's vehicle as it is now (reads only). */
const VehicleSummary = Type.Object({
  id: Uuid,
  registrationNumber: Type.String(),
  make: Nullable(Type.String()),
  model: Nullable(Type.String()),
});
const Attachment = Type.Object({
  id: Uuid,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  uploadedAt: Instant,
});
const Approval = Type.Object({
  steps: Type.Array(Type.Object({ stepId: Type.String(), name: Type.String(), approverIds: Type.Array(Uuid) })),
  skippedStepIds: Type.Array(Type.String()),
  currentStepIndex: Type.Integer(),
  approvals: Type.Array(
    Type.Object({
      stepIndex: Type.Integer(),
      stepId: Type.String(),
      approverId: Uuid,
      at: Instant,
      comment: Nullable(Type.String({ description: "The approver's comment, as sent with the approval." })),
    }),
  ),
});

export const ExportBody = Type.Object(
  {
    system: Type.String({
      pattern: EXPORT_SYSTEM_PATTERN,
      description: 'The receiving system, a short slug of your choosing (lower-case letters, digits, dots, dashes, underscores).',
    }),
    status: StringEnum(EXPORT_STATUSES, { description: 'posted: the system booked the entry; failed: it refused it.' }),
    externalId: Opt(Type.String({ maxLength: 200, description: 'The document number in that system.' })),
    externalUrl: Opt(Type.String({ maxLength: 2000, description: 'An https link to the document in that system.' })),
    failureReason: Opt(Type.String({ maxLength: 1000, description: 'Only with status failed.' })),
  },
  {
    $id: 'TravelEntryExportInput',
    additionalProperties: false,
    examples: [{ system: 'sap-fi', status: 'posted', externalId: '5100004711', externalUrl: 'https://erp.example.com/doc/5100004711' }],
  },
);

/** The last export report of one system. */
const EntryExport = Type.Object({
  system: Type.String(),
  status: StringEnum(EXPORT_STATUSES),
  externalId: Nullable(Type.String()),
  externalUrl: Nullable(Type.String()),
  failureReason: Nullable(Type.String()),
  at: { ...Instant, description: 'When the report was recorded.' },
});

export const TravelEntry = Type.Object(
  {
    id: Uuid,
    entryNumber: Type.String(),
    entryDate: DateStr,
    employeeId: Uuid,
    departureDate: DateStr,
    returnDate: DateStr,
    departureLocation: Nullable(Type.String()),
    departureLocationPlaceId: Nullable(Type.String()),
    destination: Nullable(Type.String()),
    destinationPlaceId: Nullable(Type.String()),
    destinationCountryCode: Nullable(Type.String()),
    travelType: ref(TravelType),
    purpose: Nullable(Type.String()),
    report: Nullable(Type.String()),
    preApprovalNote: Nullable(Type.String()),
    vehicleId: Nullable(Type.String()),
    vehicle: Type.Optional(
      Type.Union([VehicleSummary, Type.Null()], {
        description: 'The vehicle’s current registration number, make and model (GET and list; null: none, or no such vehicle).',
      }),
    ),
    advancePayment: Money,
    currencyCode: Type.String(),
    advancePaymentDate: DateStr,
    manualAdvanceExchangeRate: Nullable(Type.Number()),
    advancePaymentInBaseCurrency: Money,
    advancePaymentExchangeRateSource: Nullable(ref(ExchangeRateSource)),
    status: ref(TravelEntryStatus),
    statusReason: Nullable(Type.String()),
    locked: Type.Boolean({ description: 'True whenever the entry is closed for writing.' }),
    isPaidOut: Type.Boolean(),
    paidOutAt: Nullable(Instant),
    payoutBatchId: Nullable(Uuid),
    approval: Nullable(Approval),
    expenses: Type.Array(Expense),
    perDiems: Type.Array(PerDiem),
    costCenterAllocations: Type.Array(Allocation),
    attachments: Type.Array(Attachment),
    createdAt: Instant,
    editedAt: Instant,
    exports: Type.Array(EntryExport, { description: 'The last export report per system (POST .../exports), by system name.' }),
  },
  { $id: 'TravelEntry' },
);

/** What `includeDeleted=true` lists for a deleted entry in place of the entry, and what DELETE answers. */
export const TravelEntryTombstone = Type.Object(
  {
    id: Uuid,
    entryNumber: Type.String(),
    employeeId: Uuid,
    isDeleted: Type.Literal(true),
    deletedAt: Instant,
    createdAt: Instant,
    editedAt: { ...Instant, description: 'The deletion time: what updatedSince compares.' },
  },
  {
    $id: 'TravelEntryTombstone',
    description: 'A deleted (never-submitted) entry, listed only with includeDeleted=true; GET of its id answers 404.',
    examples: [
      {
        id: '3f2b8c1e-5d4a-4e7b-9c6d-1a2b3c4d5e6f',
        entryNumber: '2026-00042',
        employeeId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        isDeleted: true,
        deletedAt: '2026-11-25T10:15:00.000Z',
        createdAt: '2026-11-24T08:00:00.000Z',
        editedAt: '2026-11-25T10:15:00.000Z',
      },
    ],
  },
);

export const TravelEntryPage = listPageOf(
  Type.Union([ref(TravelEntry), ref(TravelEntryTombstone)], {
    description: 'A travel entry, or (only with includeDeleted=true) the tombstone of a deleted one, told apart by isDeleted.',
  }),
  'TravelEntryPage',
);

export const TravelEntryListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    status: Type.Optional(ref(TravelEntryStatus)),
    employeeId: Type.Optional(Uuid),
    updatedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only entries changed at or after this instant (an edit, a deletion, an export write-back, or a change of the code ' +
          'or name of a vehicle or cost center the entry names, which leaves editedAt and the ETag as they are: incremental sync), ' +
          'in the order the changes were recorded, so paging with cursors misses no entry changed meanwhile.',
      }),
    ),
    exportedTo: Type.Optional(
      Type.String({
        pattern: EXPORT_SYSTEM_PATTERN,
        description: 'Entries by their export to this system (see POST /travel-entries/{id}/exports); with exportStatus, in that state.',
        examples: ['sap-fi'],
      }),
    ),
    exportStatus: Type.Optional(
      StringEnum(['notExported', 'posted', 'failed'] as const, {
        description: 'The last export status for exportedTo (which it needs): never exported, posted, or failed.',
      }),
    ),
    includeDeleted: Type.Optional(
      Type.Boolean({
        description:
          'Also list deleted entries as tombstones ({ id, entryNumber, employeeId, isDeleted: true, deletedAt, createdAt, editedAt }), ' +
          'so an incremental sync (updatedSince) sees deletions. Default false.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ApproverBody = Type.Object(
  {
    approverId: Uuid,
    comment: Opt(Text(2000)),
  },
  { additionalProperties: false },
);

export const ReasonBody = Type.Object(
  {
    approverId: Uuid,
    reason: Opt(Text(2000)),
  },
  { additionalProperties: false },
);

export const CancelBody = Type.Object({ reason: Opt(Text(2000)) }, { additionalProperties: false });

export const travelEntrySchemas = [
  TravelEntryStatus,
  TravelType,
  ExchangeRateSource,
  ExpenseInput,
  PerDiemInput,
  AllocationInput,
  TravelEntryInput,
  TravelEntryImportInput,
  TravelEntry,
  TravelEntryTombstone,
  ExportBody,
];

/**
 * One source of truth per shape: every request schema's static type must be what the application
 * takes (the domain's fields, money also as a number). A schema that drifts from the domain stops
 * the build here instead of reaching the core as a cast.
 */
type Accepts<Taken, Sent extends Taken> = Sent;
export type RequestShapeChecks = [
  Accepts<Input.ExpenseInput, Static<typeof ExpenseInput>>,
  Accepts<Input.PerDiemInput, Static<typeof PerDiemInput>>,
  Accepts<Input.AllocationInput, Static<typeof AllocationInput>>,
  Accepts<Input.TravelEntryInput, Static<typeof TravelEntryInput>>,
  Accepts<Input.TravelEntryInput, Omit<Static<typeof TravelEntryImportInput>, 'entryNumber' | 'status' | 'paidOutAt'>>,
];

/** What a create (JSON, multipart or import) can answer besides the common codes. */
export const ENTRY_CREATE_ERRORS = [
  'EXCHANGE_RATE_UNAVAILABLE',
  'PER_DIEM_RATE_UNAVAILABLE',
  'ENTRY_NUMBER_TAKEN',
  'ALREADY_EXISTS',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_REUSED',
] as const satisfies readonly ErrorCode[];
