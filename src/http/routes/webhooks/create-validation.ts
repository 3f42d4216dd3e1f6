// Validation of a subscription create body. The body schema (WebhookSubscriptionInput) documents
// the shape, but its url and eventTypes verdicts must leave with the webhook codes, keyed by field:
// WEBHOOK_URL_NOT_HTTPS / WEBHOOK_URL_FORBIDDEN_ADDRESS (and the transport's WEBHOOK_URL_INVALID,
// WEBHOOK_URL_UNRESOLVABLE) for `url`, WEBHOOK_EVENT_TYPES_INVALID for `eventTypes` (missing, empty,
// unknown or duplicated). Everything else the schema finds (unknown fields, a body that is not an
// object, text no storage can hold, in the url too) stays VALIDATION_FAILED. When both fields fail,
// both are listed and the url's code wins.
import type { FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, type FieldErrors } from '../../../domain/errors.js';
import { validationErrors } from '../../problem.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../webhooks/catalog/event-types.js';
import { checkWebhookUrl, type UrlPolicyOptions } from '../../../webhooks/subscriptions/url-policy.js';

interface AjvIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface ValidSubscriptionInput {
  url: string;
  eventTypes: WebhookEventType[];
}

const ownField = (issue: AjvIssue): 'url' | 'eventTypes' | undefined => {
  // Text no storage can hold (NUL, a lone surrogate) is refused as in every other field: handed to
  // the URL parser, it would be percent-encoded or stripped and stored silently (session 13's probe).
  if (issue.keyword === 'storable') return undefined;
  const top = issue.instancePath.split('/')[1] ?? issue.params.missingProperty;
  return top === 'url' || top === 'eventTypes' ? top : undefined;
};

export function eventTypeErrors(value: unknown): string[] {
  if (value === undefined) return ['Required: a non-empty list of event types.'];
  if (!Array.isArray(value)) return ['Must be an array of event types.'];
  if (value.length === 0) return [`Must not be empty; allowed: ${WEBHOOK_EVENT_TYPES.join(', ')}.`];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string' || !isWebhookEventType(item)) {
      errors.push(`Unknown event type ${JSON.stringify(item)}; allowed: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
    } else if (seen.has(item)) errors.push(`Duplicate event type "${item}".`);
    seen.add(String(item));
  }
  return errors;
}

export async function validateSubscriptionInput(request: FastifyRequest, policy: UrlPolicyOptions): Promise<ValidSubscriptionInput> {
  const failure = request.validationError as (Error & { validation?: AjvIssue[]; validationContext?: string }) | undefined;
  const issues = failure?.validation ?? [];
  const foreign = issues.filter((i) => ownField(i) === undefined);
  if (failure && (foreign.length > 0 || failure.validationContext !== 'body')) {
    throw new DomainError('VALIDATION_FAILED', 'The request is invalid.', validationErrors(failure.validationContext, issues));
  }
  // The body's validation was deferred to here (attachValidation), so it is still unknown input.
  const body: Record<string, unknown> = isRecord(request.body) ? request.body : {};
  const errors: FieldErrors = {};
  let code: ErrorCode | undefined;
  let url: string | undefined;

  if (typeof body.url !== 'string') {
    errors.url = [body.url === undefined ? 'Required.' : 'Must be of type string.'];
    code = 'VALIDATION_FAILED';
  } else {
    const verdict = await checkWebhookUrl(body.url, policy);
    if (!verdict.ok) {
      errors.url = [verdict.message];
      code = verdict.code;
    } else url = verdict.url.href;
  }
  const eventTypes = body.eventTypes;
  const typeErrors = eventTypeErrors(eventTypes);
  if (typeErrors.length > 0) {
    errors.eventTypes = typeErrors;
    code ??= 'WEBHOOK_EVENT_TYPES_INVALID';
  }
  if (code !== undefined || url === undefined || !isEventTypeList(eventTypes)) {
    throw new DomainError(code ?? 'VALIDATION_FAILED', 'The webhook subscription is invalid.', errors);
  }
  return { url, eventTypes };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What eventTypeErrors accepts without a word: a list of known event types. */
const isEventTypeList = (v: unknown): v is WebhookEventType[] =>
  Array.isArray(v) && v.every((t) => typeof t === 'string' && isWebhookEventType(t));
