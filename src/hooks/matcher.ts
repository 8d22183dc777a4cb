import { canonicalToolName } from '../rules/index.js';

/**
 * Letters, digits and `_ - , |` only, with spaces around the separators: exact tool names, or a list of them
 * (`Edit, Write` as Claude Code reads it, reference as of v2.1.240).
 */
const NAME_LIST = /^[A-Za-z0-9_-]+(?: *[,|] *[A-Za-z0-9_-]+)*$/;

export interface Matcher {
  test(toolName: string): boolean;
  /** Set when the matcher is an invalid regex; such a matcher matches every tool (it fails closed). */
  error?: string;
}

/**
 * Compiles a hook matcher: empty or `*` matches every tool, a name list matches exact names (a former name of a
 * tool matches it under its current name), anything else is an
 * unanchored JavaScript regex. An invalid regex matches every tool: a guard that silently never runs would fail
 * open.
 */
export function compileMatcher(matcher: string | undefined): Matcher {
  const text = (matcher ?? '').trim();
  if (text === '' || text === '*') return { test: () => true };
  if (NAME_LIST.test(text)) {
    const names = new Set(
      text
        .split(/[|,]/)
        .map((n) => canonicalToolName(n.trim()))
        .filter(Boolean),
    );
    return { test: (name) => names.has(canonicalToolName(name)) };
  }
  try {
    const regex = new RegExp(text);
    return { test: (name) => regex.test(name) };
  } catch (e) {
    return {
      test: () => true,
      error: `invalid matcher regex ${JSON.stringify(text)}: ${(e as Error).message}`,
    };
  }
}
