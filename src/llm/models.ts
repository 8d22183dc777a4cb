/**
 * Which model each classifier stage asks. These ids are configuration: code elsewhere takes them from here or
 * from the options and environment (`AUTOMODE_MODEL`), never spelled out.
 *
 * Stage 1 is the fast first pass (Haiku class); stage 2 reviews what stage 1 would not allow (Sonnet class).
 * Claude Sonnet 5.5 answers a forced `tool_choice` (`any` or `tool`) with a 400: a stage 2 request on it asks
 * with `tool_choice: {type: 'auto'}` and relies on `forcedToolResult` to insist on the tool call.
 */
export type Stage = 1 | 2;

export const DEFAULT_MODELS: Readonly<Record<Stage, string>> = {
  1: 'claude-haiku-5-5',
  2: 'claude-sonnet-5-5',
};
