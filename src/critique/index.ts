export { type CritiqueOptions, critique, type Reviewer } from './critique.js';
export { renderGithub } from './report-github.js';
export { renderSarif } from './report-sarif.js';
export { renderText, summaryLine } from './report-text.js';
export { modelReviewer } from './review.js';
export type { CritiqueReport } from './types.js';
