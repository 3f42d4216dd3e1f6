// CNB daily fixing, denni_kurz.txt (Czech): a header line "DD.MM.YYYY #N" (fixing date, sequence
// number in the year), the column line "země|měna|množství|kód|kurz", then one pipe-separated row
// per currency with a decimal comma:
//   Maďarsko|forint|100|HUF|6,514     → 6.514 CZK for 100 HUF
// Quoted as CZK per `množství` foreign units; the units column is kept, never divided away, so the
// stored figure is exactly the published one.
import type { ParsedRate } from '../types.js';
import { isIsoDate } from '../rate-date.js';
import { RateCollector } from './collect.js';

const HEADER = /^(\d{2})\.(\d{2})\.(\d{4}) #(\d+)$/;
const COLUMNS = 'země|měna|množství|kód|kurz';

export function parseCnb(text: string, origin?: string): ParsedRate[] {
  const c = new RateCollector('CNB', origin);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = HEADER.exec((lines[0] ?? '').trim());
  if (!head) c.fail(1, `expected the fixing header "DD.MM.YYYY #N" but found "${lines[0] ?? ''}"`);
  const date = `${head![3]}-${head![2]}-${head![1]}`;
  if (!isIsoDate(date)) c.fail(1, `the fixing date "${head![0]}" is not a calendar date`);
  if ((lines[1] ?? '').trim() !== COLUMNS) c.fail(2, `expected the column line "${COLUMNS}" but found "${lines[1] ?? ''}"`);
  for (let i = 2; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (text === '') continue;
    const line = i + 1;
    const cells = text.split('|');
    if (cells.length !== 5) c.fail(line, `expected 5 fields "země|měna|množství|kód|kurz" but found ${cells.length}`);
    const [, , units, code, rate] = cells.map((s) => s.trim()) as [string, string, string, string, string];
    c.add(line, { date, currency: code, rateText: rate, unitsText: units, decimalComma: true });
  }
  if (c.rates.length === 0) c.fail(lines.length, 'the fixing lists no currencies');
  return c.rates;
}
