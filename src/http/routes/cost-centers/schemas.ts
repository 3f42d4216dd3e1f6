// Cost-center request and response schemas. The body schema checks shapes and types; the domain
// checks meaning (blank code or name) and keys its errors by field.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ref } from '../../schemas/ref.js';
import type { CostCenterFields } from '../../../domain/cost-centers/index.js';
import { PageQuery, Uuid } from '../../schemas/common.js';
import { CursorQuery, listPageOf } from '../../cursor.js';

export const CostCenterBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 40, description: 'Unique among the company’s active cost centers (case-insensitive).' }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    isArchived: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], { description: 'Archive (true) or restore (false); default false.' }),
    ),
  },
  { additionalProperties: false, $id: 'CostCenterInput', examples: [{ code: 'CC-100', name: 'Sales Zagreb' }] },
);

export const CostCenter = Type.Object(
  {
    id: Uuid,
    code: Type.String(),
    name: Type.String(),
    isArchived: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    editedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'CostCenter' },
);

/** What a list with includeDeleted=true shows of a deleted department, vehicle or cost center. */
export const OrganizationTombstone = Type.Object(
  {
    id: Uuid,
    isDeleted: Type.Literal(true),
    deletedAt: Type.String({ format: 'date-time' }),
    createdAt: Type.String({ format: 'date-time' }),
    editedAt: Type.String({ format: 'date-time', description: 'The deletion time: what updatedSince compares.' }),
  },
  {
    $id: 'OrganizationTombstone',
    description: 'A deleted record, listed only with includeDeleted=true; GET of its id answers 404.',
    examples: [
      {
        id: '5b0c2f4e-8a1d-4c3b-9e7f-2d6a1b3c4e5f',
        isDeleted: true,
        deletedAt: '2026-11-25T10:15:00.000Z',
        createdAt: '2026-11-02T08:00:00.000Z',
        editedAt: '2026-11-25T10:15:00.000Z',
      },
    ],
  },
);

/** A list page of an organization resource: its records, and (with includeDeleted=true) tombstones. */
export const organizationPageOf = (item: TSchema, $id: string) =>
  listPageOf(
    Type.Union([item, ref(OrganizationTombstone)], {
      description: 'A record, or (only with includeDeleted=true) the tombstone of a deleted one, told apart by isDeleted.',
    }),
    $id,
  );

export const CostCenterPage = organizationPageOf(ref(CostCenter), 'CostCenterPage');

/** List filters shared by the organization resources. */
export const OrganizationListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    includeArchived: Type.Optional(
      Type.Boolean({
        description:
          'Also list archived records (isArchived true). Default false, but true with updatedSince: an incremental sync sees archivals.',
      }),
    ),
    includeDeleted: Type.Optional(
      Type.Boolean({
        description:
          'Also list deleted records, as tombstones (isDeleted true, editedAt the deletion time; default false): with updatedSince, an incremental sync sees deletions.',
      }),
    ),
    updatedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only records edited at or after this instant (incremental sync), in the order the edits were recorded: paging with cursors misses no record edited meanwhile.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** One source of truth per shape: the request schema's static type must be what the domain takes. */
type Accepts<Taken, Sent extends Taken> = Sent;
export type RequestShapeChecks = [Accepts<CostCenterFields, Static<typeof CostCenterBody>>];
