/** Environment assignments that change nothing about what a command runs or touches. */
export const HARMLESS_ENV: ReadonlySet<string> = new Set([
  'CI',
  'NODE_ENV',
  'DEBUG',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_COLLATE',
  'LC_NUMERIC',
  'LC_TIME',
  'LANGUAGE',
  'COLUMNS',
  'LINES',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLORTERM',
  'PYTHONIOENCODING',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'TERM',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'GIT_TERMINAL_PROMPT',
]);

/** Variables bash sets itself for its builtins' results; their values steer nothing but those builtins. */
const SHELL_RESULTS = new Set(['REPLY', 'MAPFILE', 'OPTARG', 'OPTIND', 'COPROC']);

/**
 * Whether giving the current shell's variable NAME a new value leaves what later commands run, read and
 * expand unchanged. Environment variables are upper case by convention, so a lower-case name is a script's
 * own, except the proxy settings network programs read in lower case (`http_proxy`, `no_proxy`).
 */
export function harmlessVariable(name: string): boolean {
  if (HARMLESS_ENV.has(name) || SHELL_RESULTS.has(name)) return true;
  return /^[a-z_][a-z0-9_]*$/.test(name) && !name.endsWith('proxy');
}
