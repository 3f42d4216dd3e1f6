// When the next attempt of a delivery is due. The delay counts from the end of the attempt that just
// finished ("delay since previous attempt" in the spec), the schedule is fixed, and the partner's
// Retry-After header is ignored in v1 (spec: "The schedule below always applies").
import { DEFAULT_RETRY_DELAYS_SECONDS } from '../../config/config.js';

/** Attempts per delivery: the first one plus one per configured delay (9 with the default schedule). */
export function maxAttempts(delaysSeconds: readonly number[] = DEFAULT_RETRY_DELAYS_SECONDS): number {
  return delaysSeconds.length + 1;
}

/**
 * The due time of the attempt after `attemptNumberJustFinished` (1-based), or null when that was the
 * last attempt and a retryable failure makes the delivery Exhausted.
 */
export function nextAttemptAt(
  attemptNumberJustFinished: number,
  finishedAt: Date,
  delaysSeconds: readonly number[] = DEFAULT_RETRY_DELAYS_SECONDS,
): Date | null {
  if (!Number.isSafeInteger(attemptNumberJustFinished) || attemptNumberJustFinished < 1) {
    throw new RangeError(`attempt numbers start at 1 (got ${attemptNumberJustFinished})`);
  }
  const delay = delaysSeconds[attemptNumberJustFinished - 1];
  if (delay === undefined) return null;
  return new Date(finishedAt.getTime() + Math.round(delay * 1000));
}
