export const PATTERN_KEYS = ['command_pattern', 'path_pattern', 'input_pattern'] as const;
export type PatternKey = (typeof PATTERN_KEYS)[number];
