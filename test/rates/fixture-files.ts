// Paths and texts of the recorded provider files in test/fixtures/rates (see its README).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const fixturePath = (name: string): string => fileURLToPath(new URL(`../fixtures/rates/${name}`, import.meta.url));
export const readFixture = (name: string): string => readFileSync(fixturePath(name), 'utf8');

export const ECB_DAILY = 'ecb-eurofxref-daily-2025-04-11.xml';
export const ECB_HIST = 'ecb-eurofxref-hist-2025-04-09_2025-04-17.xml';
export const HNB_LIST = 'hnb-tecajn-eur-v3-2025-04-14.json';
export const HNB_RANGE = 'hnb-tecajn-eur-v3-2025-04-11_2025-04-17.json';
export const CNB_2023_11_13 = 'cnb-denni-kurz-2023-11-13.txt';
export const CNB_2023_11_16 = 'cnb-denni-kurz-2023-11-16.txt';
export const CNB_2025_04_25 = 'cnb-denni-kurz-2025-04-25.txt';

/** 1-based number of the first line containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`"${needle}" not in text`);
  return text.slice(0, i).split('\n').length;
}
