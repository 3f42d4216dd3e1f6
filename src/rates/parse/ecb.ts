// ECB euro foreign exchange reference rates (eurofxref-daily.xml, eurofxref-hist-90d.xml,
// eurofxref-hist.xml): a gesmes envelope whose Cube holds one Cube per day and one per currency:
//   <Cube><Cube time='2025-04-11'><Cube currency='USD' rate='1.1346'/>...</Cube>...</Cube>
// Quoted as foreign units per 1 EUR with a decimal point. The daily file has one day; the history
// files many, newest first.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ParsedRate } from '../types.js';
import { isIsoDate } from '../rate-date.js';
import { RateCollector } from './collect.js';

interface CubeNode {
  time?: string;
  currency?: string;
  rate?: string;
  Cube?: CubeNode[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => name === 'Cube',
});

/**
 * The parser keeps no positions, so the line of each <Cube> is found by scanning the text: the
 * open tags in document order are the nodes in pre-order. Comments are blanked first (keeping
 * their line breaks) so a commented-out Cube cannot shift the count.
 */
function cubeLines(xml: string): number[] {
  const blanked = xml.replace(/<!--[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ' '));
  const lines: number[] = [];
  let line = 1;
  let last = 0;
  for (const m of blanked.matchAll(/<(?:[A-Za-z_][\w.-]*:)?Cube\b/g)) {
    for (let i = last; i < m.index; i++) if (blanked.charCodeAt(i) === 10) line++;
    last = m.index;
    lines.push(line);
  }
  return lines;
}

export function parseEcb(text: string, origin?: string): ParsedRate[] {
  const c = new RateCollector('ECB', origin);
  const xml = text.replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) c.fail(valid.err.line, `not well-formed XML: ${valid.err.msg}`);
  const doc = parser.parse(xml) as { Envelope?: { Cube?: CubeNode[] } };
  const lines = cubeLines(xml);
  let index = 0;
  const next = (): number => lines[index++] ?? 1;

  const outer = doc.Envelope?.Cube;
  if (doc.Envelope === undefined) c.fail(1, 'expected a gesmes:Envelope document');
  if (outer === undefined || outer.length !== 1) c.fail(lines[0] ?? 1, 'expected exactly one outer <Cube> inside the envelope');
  next();
  const days = outer![0]!.Cube ?? [];
  if (days.length === 0) c.fail(lines[0] ?? 1, 'the file holds no <Cube time=...> publication');
  for (const day of days) {
    const dayLine = next();
    if (typeof day.time !== 'string') c.fail(dayLine, 'a day <Cube> has no time attribute');
    if (!isIsoDate(day.time!)) c.fail(dayLine, `time "${day.time}" is not a calendar date yyyy-MM-dd`);
    const rows = day.Cube ?? [];
    if (rows.length === 0) c.fail(dayLine, `the publication of ${day.time} lists no currencies`);
    for (const row of rows) {
      const line = next();
      if (typeof row.currency !== 'string' || typeof row.rate !== 'string')
        c.fail(line, 'a currency <Cube> needs currency and rate attributes');
      if (row.Cube !== undefined) c.fail(line, 'a currency <Cube> must not contain further Cubes');
      c.add(line, { date: day.time!, currency: row.currency!, rateText: row.rate!, decimalComma: false });
    }
  }
  return c.rates;
}
