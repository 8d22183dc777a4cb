/** The permission modes. */
export const MODES = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'] as const;

export type Mode = (typeof MODES)[number];

export function isMode(x: unknown): x is Mode {
  return typeof x === 'string' && (MODES as readonly string[]).includes(x);
}

const [first, ...rest] = MODES;

/** The modes as settings and hook inputs spell them: `manual` is the older name of `default`. */
export const MODE_SPELLINGS = [first, 'manual', ...rest] as const;

/** A mode as settings and hook inputs spell it. */
export function toMode(x: unknown): Mode | undefined {
  if (x === 'manual') return 'default';
  return isMode(x) ? x : undefined;
}
