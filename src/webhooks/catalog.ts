// The webhook event catalog (spec, Events; enum `WebhookEventType`) and the one mapping from domain
// events to it. The set is complete for a release: a new type comes only with a new domain event.
//
// Travel entries: the entry's audit log gets one record per domain event, so every TravelEntry*
// event maps to exactly one catalog event. Creation (and a legacy import, which creates the entry
// here) is entry.created; the terminal approval through a workflow step (TravelEntryApproved) is
// entry.approved; the payout is entry.paidout; everything else, including TravelEntryAutoApproved
// (tenants without a workflow step with eligible approvers), is entry.updated. Employees:
// registration is employee.created, every later record (update, archive) is employee.updated.

export const WEBHOOK_EVENT_TYPES = [
  'entry.created',
  'entry.updated',
  'entry.approved',
  'entry.paidout',
  'employee.created',
  'employee.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Stream categories the catalog projector reads (the part of the stream id before the first '-'). */
export const CATALOG_CATEGORIES = ['travelEntry', 'employee'] as const;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The catalog event a domain event produces, or undefined when it produces none. */
export function catalogTypeOf(domainEventType: string): WebhookEventType | undefined {
  switch (domainEventType) {
    case 'TravelEntryCreated':
    case 'TravelEntryImported':
      return 'entry.created';
    case 'TravelEntryApproved':
      return 'entry.approved';
    case 'TravelEntryPaidOut':
      return 'entry.paidout';
    case 'EmployeeRegistered':
      return 'employee.created';
  }
  // Every other record in an entry's or an employee's history is an update of an existing row.
  if (domainEventType.startsWith('TravelEntry')) return 'entry.updated';
  if (domainEventType.startsWith('Employee')) return 'employee.updated';
  return undefined;
}
