// Custom-field values checked against the tenant's definitions (supplied by the shell): unknown
// keys are rejected so typos do not silently vanish, required ones must have a value, and every
// value must match its definition's type. Errors are keyed `customFields.<key>`.
import type { FieldErrorCollector } from '../shared/field-errors.js';
import { isDate } from '../shared/dates.js';
import { characterCount } from '../shared/text.js';
import type { CustomFieldDefinition } from './commands.js';
import type { CustomFieldValue } from './model.js';

const MAX_TEXT = 500;

function valueProblem(def: CustomFieldDefinition, value: unknown): string | null {
  switch (def.type) {
    case 'text':
      if (typeof value !== 'string') return 'Must be text.';
      return characterCount(value) > MAX_TEXT ? `At most ${MAX_TEXT} characters.` : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'Must be a number.';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Must be true or false.';
    case 'date':
      return typeof value === 'string' && isDate(value) ? null : 'Must be a date (yyyy-MM-dd).';
    default: {
      const unknown: never = def.type;
      return `Unsupported custom-field type ${String(unknown)}.`;
    }
  }
}

/** Blank text counts as no value, like every other optional text field. */
const isAbsent = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export function validateCustomFields(
  values: Record<string, unknown> | null | undefined,
  definitions: readonly CustomFieldDefinition[],
  errors: FieldErrorCollector,
): Record<string, CustomFieldValue> {
  const given = values ?? {};
  const known = new Set(definitions.map((d) => d.key));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) errors.add(`customFields.${key}`, 'Unknown custom field.');
  }
  const result: Record<string, CustomFieldValue> = {};
  for (const def of definitions) {
    // Own keys only: a field an operator defines may be named `toString`.
    const value = Object.hasOwn(given, def.key) ? given[def.key] : undefined;
    if (isAbsent(value)) {
      if (def.required) errors.add(`customFields.${def.key}`, 'Required.');
      continue;
    }
    if (errors.check(`customFields.${def.key}`, valueProblem(def, value))) {
      result[def.key] = typeof value === 'string' ? value.trim() : (value as CustomFieldValue);
    }
  }
  return result;
}
