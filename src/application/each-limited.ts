// Work over many streams without taking every pooled connection at once.

/**
 * Runs `fn` over the items a few at a time, results in item order. Bounded so a 500-entry payout
 * batch, or an entry with a hundred cost centers, neither runs one round trip after another nor
 * takes every pooled connection at once.
 */
export async function eachLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, limit = 8): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
