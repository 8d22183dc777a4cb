/** The words of one simple command, leading `VAR=value` assignments left out. */
function words(segment: string): string[] {
  const all = segment.trim().split(/\s+/).filter(Boolean);
  let i = 0;
  while (i < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[i]!)) i++;
  return all.slice(i);
}

/**
 * The `sandbox.excludedCommands` entry that takes this command out of the sandbox: one whose words begin one of
 * its simple commands (`docker` matches `docker ps` and `make && docker build .`; `npm:*` is `npm`). Either
 * answer is safe: an excluded command is not auto-allowed, it goes through the normal permission flow.
 */
export function excludedBy(command: string, excluded: readonly string[]): string | undefined {
  if (excluded.length === 0) return undefined;
  const segments = command.split(/&&|\|\||[;|&\n()]/).map(words);
  for (const entry of excluded) {
    const want = words(entry.replace(/(:\*|\s\*)$/, ''));
    if (want.length === 0) continue;
    if (segments.some((seg) => want.every((w, i) => seg[i] === w))) return entry;
  }
  return undefined;
}
