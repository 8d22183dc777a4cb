import path from 'node:path';
import { shellWord } from '../../bash/index.js';
import type { ClassifiedVerdict } from '../../classifier/index.js';
import { EDIT_TOOLS, READ_TOOLS } from '../../policy/index.js';
import type { AutoDecision } from './types.js';

/** Programs whose first argument is a subcommand worth keeping in a rule. */
const WITH_SUBCOMMANDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'gh',
  'terraform',
  'pip',
  'uv',
  'poetry',
  'make',
  'dotnet',
  'mvn',
  'gradle',
  'brew',
  'apt',
  'systemctl',
]);
const SUBCOMMAND = /^[a-z][\w:.-]*$/;

/** `Bash(git commit *)` for `git commit -m x`, `Bash(touch *)` for `touch a`, `Bash(ls)` for `ls`. */
function bashPrefixRule(argv: string[]): string {
  const [name, sub] = argv;
  const program = shellWord(name!, true);
  if (argv.length === 1) return `Bash(${program})`;
  if (WITH_SUBCOMMANDS.has(name!) && sub !== undefined && SUBCOMMAND.test(sub))
    return `Bash(${program} ${sub} *)`;
  return `Bash(${program} *)`;
}

/** `Bash(rm -rf build)`: the command's own words, when a rule can name them exactly. */
function bashExactRule(argv: string[]): string | undefined {
  if (argv.some((w) => /[*()\n]/.test(w) || w === '')) return undefined;
  return `Bash(${argv.map((w, i) => shellWord(w, i === 0)).join(' ')})`;
}

/** For each command of a Bash call that the rules leave open: its program's rule, then its own words. */
function bashLadders(verdict: ClassifiedVerdict | undefined): string[][] | { why: string } {
  const analysis = verdict?.analysis;
  if (!analysis || analysis.opaque) return { why: 'the command cannot be read in full, so no rule names it' };
  const open = new Set(verdict.parts.filter((p) => p.decision !== 'allow').map((p) => p.command));
  const ladders: string[][] = [];
  for (const c of analysis.commands) {
    if (!open.has(c.id) || c.argv.length === 0) continue;
    const dynamic = c.argv.find((w) => !w.static);
    if (dynamic) return { why: `${dynamic.text} is known only when the command runs, so no rule names it` };
    const words = c.argv.map((w) => w.value);
    const exact = bashExactRule(words);
    ladders.push(exact ? [bashPrefixRule(words), exact] : [bashPrefixRule(words)]);
  }
  return ladders;
}

function bashSuggestions(verdict: ClassifiedVerdict | undefined): string[] {
  const ladders = bashLadders(verdict);
  return 'why' in ladders ? [] : [...new Set(ladders.map((l) => l[0]!))];
}

/** Allow rules that would let calls like this one through: what "always allow" offers to save, unchecked. */
export function suggestRules(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
  verdict?: ClassifiedVerdict,
): string[] {
  if (tool === 'Bash') return bashSuggestions(verdict);
  const file = input.file_path ?? input.notebook_path ?? input.path;
  if (EDIT_TOOLS.has(tool) && typeof file === 'string') return [`Edit(/${path.resolve(cwd, file)})`];
  if (READ_TOOLS.has(tool)) {
    const target = path.resolve(cwd, typeof file === 'string' ? file : '.');
    return [tool === 'Read' ? `Read(/${target})` : `Read(/${target}/**)`];
  }
  if (tool === 'WebFetch' && typeof input.url === 'string') {
    try {
      return [`WebFetch(domain:${new URL(input.url).hostname})`];
    } catch {
      return [];
    }
  }
  return [tool];
}

/** What "always allow" offers: rules checked to let this very call through, or why there are none. */
export interface Suggestions {
  /** Allow rules that, added together to the settings the decision came from, make it allow; none of them needless. */
  rules: string[];
  /** Why no rule is offered, when none is. */
  why?: string;
}

/** The call's decision again with these allow rules added to the settings (every other source unchanged). */
export type DecideWithRules = (rules: readonly string[]) => Promise<AutoDecision>;

/**
 * The suggestions, each checked: the same decision is made again with them added, and only rules that turn it
 * into allow are offered (for Bash, the programs' rules first, then the commands' own words). A rule that would
 * not (a command inside a wrapper, another part of the line that still asks, a protected path, a hard deny) is
 * dropped, and the answer says why.
 */
export async function checkedSuggestions(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
  verdict: ClassifiedVerdict | undefined,
  decideWith: DecideWithRules,
): Promise<Suggestions> {
  let ladders: string[][];
  if (tool === 'Bash') {
    const found = bashLadders(verdict);
    if ('why' in found) return { rules: [], why: found.why };
    ladders = found;
  } else {
    ladders = suggestRules(tool, input, cwd, verdict).map((r) => [r]);
  }
  if (ladders.length === 0)
    return { rules: [], why: `no allow rule changes it: ${(await decideWith([])).reason}` };
  const widest = unique(ladders.map((l) => l[0]!));
  const first = await decideWith(widest);
  if (first.behavior === 'allow') return { rules: await needed(widest, decideWith) };
  // The commands' own words, each widened back to its program's rule where that still lets the call through.
  let narrowest = ladders.map((l) => l.at(-1)!);
  if (
    narrowest.some((r, i) => r !== ladders[i]![0]) &&
    (await decideWith(unique(narrowest))).behavior === 'allow'
  ) {
    for (const [i, ladder] of ladders.entries()) {
      if (ladder.length === 1) continue;
      const wider = narrowest.map((r, j) => (j === i ? ladder[0]! : r));
      if ((await decideWith(unique(wider))).behavior === 'allow') narrowest = wider;
    }
    return { rules: await needed(unique(narrowest), decideWith) };
  }
  const still = first.behavior === 'deny' ? 'be denied' : 'ask';
  return { rules: [], why: `with ${widest.join(', ')} added it would still ${still}: ${first.reason}` };
}

function unique(rules: readonly string[]): string[] {
  return [...new Set(rules)];
}

/** The rules of an allowing set that it needs: one the others allow without is left out. */
async function needed(rules: string[], decideWith: DecideWithRules): Promise<string[]> {
  let kept = rules;
  for (const rule of rules) {
    if (kept.length === 1) break;
    const without = kept.filter((r) => r !== rule);
    if ((await decideWith(without)).behavior === 'allow') kept = without;
  }
  return kept;
}

const DESTRUCTIVE: Array<[RegExp, string]> = [
  [/\brm\s+(-\S*[rRf]|--recursive|--force)/, 'deletes files recursively or without confirmation'],
  [/\bgit\s+reset\s+--hard\b/, 'discards uncommitted changes'],
  [/\bgit\s+push\b.*\s(--force\b|--force-with-lease\b|-f\b)/, 'overwrites the remote history'],
  [/\bgit\s+clean\s+-\S*f/, 'deletes untracked files'],
  [/\bgit\s+(checkout|restore)\s+(--\s+)?\.(\s|$)/, 'discards changes in the working tree'],
  [/\bgit\s+branch\s+-D\b/, 'deletes a branch that may not be merged'],
  [/\b(DROP|TRUNCATE)\s+(TABLE|DATABASE|SCHEMA)\b/i, 'deletes database data'],
  [/\bkubectl\s+delete\b/, 'deletes cluster resources'],
  [/\bterraform\s+destroy\b/, 'destroys infrastructure'],
  [/\bmkfs(\.\w+)?\b/, 'formats a file system'],
  [/\bdd\b.*\bof=/, 'overwrites a file or device'],
  [/\bchmod\s+-R\b|\bchown\s+-R\b/, 'changes permissions of a whole tree'],
];

/** A warning for the prompt when a shell command destroys work or data. */
export function destructiveWarning(tool: string, input: Record<string, unknown>): string | undefined {
  if (tool !== 'Bash' || typeof input.command !== 'string') return undefined;
  const hit = DESTRUCTIVE.find(([re]) => re.test(input.command as string));
  return hit ? `This command ${hit[1]}.` : undefined;
}
