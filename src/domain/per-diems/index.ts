// The statutory per-diem engine (HR, SI, CZ, SK): docs/per-diems.md describes each law as built.
export * from './law.js';
export * from './model.js';
export * from './rate-table.js';
export { DOMESTIC_AMOUNTS, domesticAmountsOn, type DomesticAmounts } from './domestic-amounts.js';
export { calculatePerDiems, lawExchangeRateDate, type EngineData } from './engine.js';
export { MAX_STOPS, MIN_STOPS, type ZoneDirectory } from './itinerary.js';
export { canonicalWall, isoInstant, utcToWall, wallFieldsMs, wallToUtc } from './wall-clock.js';
export { LAW_DESCRIPTIONS, type LawDescription } from './law-description.js';
