import type { createColors } from 'picocolors';

/** The colour functions a text report writes with: picocolors, on or off. */
export type Colors = ReturnType<typeof createColors>;
