// Cost-center request and response schemas. The body schema checks shapes and types; the domain
// checks meaning (blank code or name) and keys its errors by field.
import { Type, type Static } from '@sinclair/typebox';
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

export const CostCenterPage = listPageOf(ref(CostCenter), 'CostCenterPage');

/** List filters shared by the organization resources. */
export const OrganizationListQuery = Type.Object(
  {
    ...PageQuery,
    ...CursorQuery,
    includeArchived: Type.Optional(Type.Boolean({ description: 'Also list archived records (default false).' })),
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
