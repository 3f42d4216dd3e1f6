// The four per-diem laws the engine implements. A tenant's law is its country: the employer's
// country decides which statute caps a tax-free per diem, wherever the trip goes.

export const PER_DIEM_LAWS = ['HR', 'SI', 'CZ', 'SK'] as const;
export type PerDiemLaw = (typeof PER_DIEM_LAWS)[number];

export const isPerDiemLaw = (value: string): value is PerDiemLaw => (PER_DIEM_LAWS as readonly string[]).includes(value);

/** The currency each law's domestic amounts are stated in, and the tenant's base currency. */
export const LAW_CURRENCY: Readonly<Record<PerDiemLaw, string>> = { HR: 'EUR', SI: 'EUR', CZ: 'CZK', SK: 'EUR' };

/**
 * The zone whose calendar days the Czech and Slovak laws count (the employer's country). The other
 * two laws count 24-hour blocks, where a zone only turns wall-clock times into instants.
 */
export const LAW_ZONE: Readonly<Record<PerDiemLaw, string>> = {
  HR: 'Europe/Zagreb',
  SI: 'Europe/Ljubljana',
  CZ: 'Europe/Prague',
  SK: 'Europe/Bratislava',
};
