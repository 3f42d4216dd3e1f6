// Department request and response schemas. The body schema checks shapes and types; the domain and
// the reference lookups check meaning and key their errors by field.
import { Type, type Static } from '@sinclair/typebox';
import { ref } from '../../schemas/ref.js';
import type { DepartmentFields } from '../../../domain/departments/index.js';
import { Uuid } from '../../schemas/common.js';
import { organizationPageOf } from '../cost-centers/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);

export const DepartmentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    code: Type.Optional(
      Nullable(Type.String({ maxLength: 40, description: 'Unique among the company’s active departments (case-insensitive).' })),
    ),
    parentId: Type.Optional(
      Nullable({
        ...Uuid,
        description: 'An active department of the company; no cycles. A department being archived may keep one archived since.',
      }),
    ),
    defaultCostCenterId: Type.Optional(
      Nullable({ ...Uuid, description: 'An active cost center of the company. A department being archived may keep one archived since.' }),
    ),
    isArchived: Type.Optional(Nullable(Type.Boolean({ description: 'Archive (true) or restore (false); default false.' }))),
  },
  {
    additionalProperties: false,
    $id: 'DepartmentInput',
    examples: [{ name: 'Sales', code: 'SAL', parentId: null, defaultCostCenterId: null }],
  },
);

export const Department = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    code: Nullable(Type.String()),
    parentId: Nullable(Type.String()),
    defaultCostCenterId: Nullable(Type.String()),
    isArchived: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    editedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Department' },
);

export const DepartmentPage = organizationPageOf(ref(Department), 'DepartmentPage');

/** One source of truth per shape: the request schema's static type must be what the domain takes. */
type Accepts<Taken, Sent extends Taken> = Sent;
export type RequestShapeChecks = [Accepts<DepartmentFields, Static<typeof DepartmentBody>>];
