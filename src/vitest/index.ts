// Kept in the emitted declarations, so that `declare module 'vitest'` below augments vitest for importers.
import 'vitest';
import { expect } from 'vitest';
import { automodeMatchers, type MatcherOptions, type MatcherSettings } from './matchers.js';

export {
  type AutomodeMatchers,
  automodeMatchers,
  createAutomodeMatchers,
  type MatcherCall,
  type MatcherOptions,
  type MatcherSettings,
} from './matchers.js';

/** The matchers as assertions: each classifies, so each returns a promise to await. */
export interface AutomodeAssertions<R = Promise<void>> {
  /** The call is allowed by these settings (and, with `options.rule`, by that rule). */
  toBeAllowedBy(settings: MatcherSettings, options?: MatcherOptions): R;
  /** The call is asked by these settings (and, with `options.rule`, by that rule). */
  toBeAskedBy(settings: MatcherSettings, options?: MatcherOptions): R;
  /** The call is denied by these settings (and, with `options.rule`, by that rule). */
  toBeDeniedBy(settings: MatcherSettings, options?: MatcherOptions): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with vitest's own, which has this default.
  interface Assertion<T = any> extends AutomodeAssertions {}
}

expect.extend(automodeMatchers as unknown as Parameters<typeof expect.extend>[0]);
