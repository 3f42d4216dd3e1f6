// HNB exchange-rate list, API v3 (https://api.hnb.hr/tecajn-eur/v3): a JSON array with one object
// per currency and list, all values strings, rates with a decimal comma:
//   {"broj_tecajnice":"73","datum_primjene":"2025-04-14","valuta":"USD","srednji_tecaj":"1,134600",...}
// We keep the middle rate (srednji_tecaj), which is the ECB reference rate of the previous TARGET
// day; datum_primjene is the day the list applies to, so it is the rate date. Quoted as foreign
// units per 1 EUR. Both the 2023 style ("1,0887") and the padded 2025 style ("1,134600") parse.
import type { ParsedRate } from '../types.js';
import { RateCollector } from './collect.js';
import { scanJsonArray } from './json-lines.js';

export function parseHnb(text: string, origin?: string): ParsedRate[] {
  const c = new RateCollector('HNB', origin);
  const body = text.replace(/^\uFEFF/, '');
  const scan = scanJsonArray(body);
  if (!scan.ok) return c.fail(scan.line, `not a JSON array of rate rows: ${scan.message}`);
  const rows = JSON.parse(body) as unknown[];
  rows.forEach((row, i) => {
    const line = scan.elementLines[i] ?? 1;
    if (typeof row !== 'object' || row === null || Array.isArray(row)) c.fail(line, `row ${i + 1} is not an object`);
    const r = row as Record<string, unknown>;
    const field = (name: string): string => {
      const v = r[name];
      if (typeof v !== 'string') c.fail(line, `row ${i + 1} has no text field "${name}"`);
      return (v as string).trim();
    };
    const currency = field('valuta');
    c.add(line, { date: field('datum_primjene'), currency, rateText: field('srednji_tecaj'), decimalComma: true });
  });
  return c.rates;
}
