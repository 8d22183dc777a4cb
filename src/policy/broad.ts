import type { Rule } from '../rules/index.js';

/** Programs that run whatever they are given: an allow with a wildcard after them allows anything. */
const RUNS_ANYTHING = new Set([
  'python',
  'python2',
  'python3',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'pwsh',
  'eval',
  'exec',
  'env',
  'sudo',
  'doas',
  'xargs',
  'npx',
  'bunx',
  'pnpx',
  'uvx',
  'pipx',
]);

/** Package-manager commands that run project-defined or downloaded scripts. */
const RUNNERS = [
  /^(npm|pnpm|yarn|bun) (run|exec|x|dlx)\b/,
  /^(yarn|pnpm) dlx\b/,
  /^(uv|poetry|pipenv) run\b/,
];

/**
 * Allow rules that auto mode sets aside, as Claude Code does on entering it: the whole Bash tool, wildcards
 * after interpreters, shells and runners, and package-manager run commands.
 */
export function isBroadAllow(rule: Rule): boolean {
  if (rule.type !== 'permission' || rule.behavior !== 'allow') return false;
  const parsed = rule.parsed;
  if (parsed.kind === 'tool') return parsed.tool === 'Bash';
  if (parsed.kind !== 'bash') return false;
  const p = parsed.pattern;
  if (p.exact) return false;
  const first = p.source.split(' ')[0] ?? '';
  if (first.includes('*')) {
    const stem = first.replace(/\*.*$/, '');
    return stem === '' || [...RUNS_ANYTHING].some((r) => r.startsWith(stem) || stem.startsWith(r));
  }
  if (RUNS_ANYTHING.has(first.replace(/^.*\//, ''))) return true;
  return RUNNERS.some((re) => re.test(p.source));
}
