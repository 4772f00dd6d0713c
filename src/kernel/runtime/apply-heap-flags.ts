// Imported first by main.ts, so that the flags hold before any other module allocates (heap-flags.ts says why).
import { applyHeapFlags } from './heap-flags';

applyHeapFlags();
