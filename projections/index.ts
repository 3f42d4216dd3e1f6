// Every read-model projection the projector runs (and the CLI can rebuild): each feature declares
// its own (src/features/index.ts).
import type { Projection } from './projection.js';
import { features } from '../src/features/index.js';

export function allProjections(): Projection[] {
  return features.flatMap((f) => f.projections ?? []);
}
