// The per-diem engine's rate book reads a span of publications at once and applies the same
// fallback rule as every single lookup (applicableRate in src/rates/rate-date.ts): for every date
// and currency of the fixtures, the book and findRate agree, including weekends, the 7-day limit
// and dates before the first list.
import t from 'tap';
import { loadRateBook, RateBooks } from '../../../src/application/per-diems/rate-book.js';
import { importRatesFile } from '../../../src/rates/import-command.js';
import { findRate } from '../../../src/rates/lookup.js';
import { PROVIDERS } from '../../../src/rates/providers.js';
import { addDays } from '../../../src/rates/rate-date.js';
import { openTestDatabase } from '../../helpers/db.js';
import { ECB_HIST, HNB_RANGE, fixturePath } from '../../rates/fixture-files.js';

const { db } = await openTestDatabase(t);
await importRatesFile(db, 'ECB', fixturePath(ECB_HIST)); // 2025-04-09 … 2025-04-17, no 12/13
await importRatesFile(db, 'HNB', fixturePath(HNB_RANGE)); // 2025-04-11 … 2025-04-17, no 12/13

t.test('the book and findRate apply the same rate on every date, up to 7 days after the last list', async (t) => {
  for (const code of ['ECB', 'HNB'] as const) {
    const provider = PROVIDERS[code];
    const book = await loadRateBook(db, provider, '2025-04-05', '2025-04-27');
    for (let date = '2025-04-05'; date <= '2025-04-27'; date = addDays(date, 1)) {
      for (const currency of ['USD', 'GBP', 'CHF', 'XXX']) {
        const single = await findRate(db, { provider: code, currency, date });
        const fromBook = book.find(currency, date);
        t.same(
          fromBook === null ? null : [fromBook.date, fromBook.rate],
          single === null ? null : [single.date, single.rate],
          `${code} ${currency} ${date}`,
        );
        t.equal(book.find(currency, date), fromBook, 'a second look-up is the remembered answer');
      }
    }
  }
});

t.test('the weekend takes Friday’s list; 8 days after the last list there is none', async (t) => {
  const book = await loadRateBook(db, PROVIDERS.ECB, '2025-04-12', '2025-04-25');
  t.equal(book.find('USD', '2025-04-12')?.date, '2025-04-11');
  t.equal(book.find('USD', '2025-04-13')?.date, '2025-04-11');
  t.equal(book.find('USD', '2025-04-24')?.date, '2025-04-17');
  t.equal(book.find('USD', '2025-04-25'), null);
});

t.test('books are remembered per provider and span, and read again when asked fresh', async (t) => {
  const books = new RateBooks(db);
  const a = books.get(PROVIDERS.ECB, '2025-04-01', '2025-04-16', false);
  t.equal(books.get(PROVIDERS.ECB, '2025-04-01', '2025-04-16', false), a);
  t.not(books.get(PROVIDERS.ECB, '2025-04-01', '2025-04-16', true), a);
  t.equal((await a).find('USD', '2025-04-16')?.date, '2025-04-16');
});
