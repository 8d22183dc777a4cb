export type { Colors } from './colors.js';
