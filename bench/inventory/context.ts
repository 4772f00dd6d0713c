import type { GenerateOptions } from '../generate-inventory';
import type { Pool, Rand } from './catalog';

/** What the object and workload builders share with the generator: its options, clock and random source. */
export interface GenContext {
  opts: Required<GenerateOptions>;
  rand: Rand;
  now: number;
  iso: (ms: number) => string;
  pools: Pool[];
  podsBy: Record<string, number>;
  usedNames: Set<string>;
  scaleDown: Set<string>;
}
