import type { createColors } from 'picocolors';

export type Colors = ReturnType<typeof createColors>;
