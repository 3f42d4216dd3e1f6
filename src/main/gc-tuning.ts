// V8 settings of the long-running process, set first thing in start.ts's main() (its modules have
// loaded by then; the allocations this is about come with requests and projection batches).
//
// Allocation-site pretenuring off. When many objects from one allocation site survive a young
// collection, V8 starts allocating that site's objects straight in the old generation. A request
// that reads a stream allocates a few megabytes that live for milliseconds, but a young collection
// that lands in the middle of it sees them alive, so their sites get pretenured. From then on, each
// such read fills the old generation with garbage, and full collections pause every few seconds:
// those pauses are the tail of the history and as-of latencies. Off, the same reads (one client,
// 5 s rounds) had a p99 3-7 ms lower and a p50 within 1 ms, with about half the full collections
// (docs/benchmarks.md, session 16). V8 reads the flag when it acts on pretenuring feedback, at each
// collection, so setting it at start-up takes effect before the first request. Node refuses it in
// NODE_OPTIONS; a start script's command line would be the other place, and every way of starting
// the process (npm start, the image's CMD, tests) would need it there.
import v8 from 'node:v8';

export const PROCESS_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

export function tuneGarbageCollector(): void {
  for (const flag of PROCESS_V8_FLAGS) v8.setFlagsFromString(flag);
}
