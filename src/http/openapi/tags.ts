// The document's tags, in the order a partner meets them, each with what it groups.
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Company', description: 'The company (tenant) the API key belongs to: its country, base currency and enabled lists.' },
  {
    name: 'Employees',
    description: 'Employees who travel: profiles, bank accounts and archiving. Personal data never leaves in webhooks.',
  },
  {
    name: 'Travel entries',
    description:
      'Travel entries with their expenses, per diems, cost-center allocations and attachments, the approval workflow, ' +
      'and the export write-back of an ERP.',
  },
  { name: 'Per diems', description: 'The statutory per-diem engine of Croatia, Slovenia, Czechia and Slovakia.' },
  { name: 'Payouts', description: 'Entries ready for payout and payout batches.' },
  { name: 'Departments', description: 'The company’s departments, a tree, each with an optional default cost center.' },
  { name: 'Vehicles', description: 'Company and private vehicles named on travel entries.' },
  { name: 'Cost centers', description: 'Cost centers that entries allocate their costs to.' },
  { name: 'Reference data', description: 'Exchange rates, per-diem rates, countries, currencies and municipalities.' },
  { name: 'Webhooks', description: 'Webhook subscriptions, their signing secrets, and the delivery log with manual retry.' },
  { name: 'Events', description: 'The event feed: the webhook events as a pull API, with cursors and long polling.' },
  { name: 'Audit', description: 'For auditors (the audit scope): the recorded history of a resource and its hash chain.' },
  { name: 'Operations', description: 'Liveness and readiness probes for load balancers and orchestrators (no API key).' },
];
