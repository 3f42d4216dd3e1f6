// V8 settings of the long-running process, set before it does anything else.
//
// Allocation-site pretenuring off. When many objects from one allocation site survive a young
// collection, V8 starts allocating that site's objects straight in the old generation. A request
// that reads a stream allocates a few megabytes that live for milliseconds, but a young collection
// that lands in the middle of it sees them alive, so their sites get pretenured. From then on, each
// such read fills the old generation with garbage, and full collections pause every few seconds:
// those pauses are the tail of the history and as-of latencies. Off, the same reads (one client,
// 5 s rounds) had p99 4-5 ms lower and p50 1-2 ms lower, with half the full collections
// (docs/benchmarks.md, session 16). The flag is read at each collection, so setting it at start-up
// takes effect before the first request.
import v8 from 'node:v8';

export const PROCESS_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

export function tuneGarbageCollector(): void {
  for (const flag of PROCESS_V8_FLAGS) v8.setFlagsFromString(flag);
}
