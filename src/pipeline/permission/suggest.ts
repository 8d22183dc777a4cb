import path from 'node:path';
import { shellWord } from '../../bash/index.js';
import type { ClassifiedVerdict } from '../../classifier/index.js';
import { EDIT_TOOLS, READ_TOOLS } from '../../policy/index.js';

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

function bashSuggestions(verdict: ClassifiedVerdict | undefined): string[] {
  const analysis = verdict?.analysis;
  if (!analysis || analysis.opaque) return [];
  const open = new Set(verdict.parts.filter((p) => p.decision !== 'allow').map((p) => p.command));
  const rules = analysis.commands
    .filter((c) => open.has(c.id) && c.argv.length > 0 && c.argv.every((w) => w.static))
    .map((c) => bashPrefixRule(c.argv.map((w) => w.value)));
  return [...new Set(rules)];
}

/** Allow rules that would let calls like this one through: what "always allow" offers to save. */
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
