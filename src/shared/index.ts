export { type CallLine, parseCallLine, parseJsonObject } from './call-line.js';
export type { Colors } from './colors.js';
export { workflowCommand } from './github.js';
export { isObject, isStringRecord, isStrings } from './guards.js';
export { isMode, MODE_SPELLINGS, MODES, type Mode, toMode } from './modes.js';
