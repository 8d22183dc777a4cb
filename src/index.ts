export { analyze, analyzeBash, loadBash, MAX_INPUT_BYTES } from './bash/analyze.js';
export type * from './bash/types.js';
export { DYN } from './bash/types.js';
