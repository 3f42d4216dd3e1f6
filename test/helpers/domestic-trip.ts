// The smallest valid travel entry body: a one-night domestic trip in EUR for `employeeId`, with
// `extra` fields on top (a vehicle, allocations, a purpose).
export const domesticTrip = (employeeId: string, extra: Record<string, unknown> = {}) => ({
  employeeId,
  departureDate: '2025-04-14',
  returnDate: '2025-04-15',
  travelType: 'Domestic',
  currencyCode: 'EUR',
  advancePayment: 0,
  ...extra,
});
