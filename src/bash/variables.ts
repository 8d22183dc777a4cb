import { variableRisk } from './programs/environment.js';

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

/**
 * Programs that run no other program and read variables only to shape what they print (their manuals'
 * ENVIRONMENT sections: ls's LS_COLORS, TIME_STYLE, QUOTING_STYLE, BLOCK_SIZE; du's and df's block sizes; tree's
 * colours; date's TZ): a variable given to one of them reaches only it and the C library.
 */
const PRINT_ONLY_ENV = new Set(
  'ls cat head tail wc stat du df pwd basename dirname realpath readlink date uname id whoami tree cut nl uniq tac seq'.split(
    ' ',
  ),
);

/**
 * What the C library and the dynamic loader read on every program's behalf that loads code, writes files or
 * reads other data: glibc's sysdeps/generic/unsecvars.h (the variables it clears for set-user-ID programs), its
 * malloc, getopt and message settings, the loaders' LD_ and DYLD_ families, and macOS's libmalloc (`MallocLogFile`
 * writes a file).
 */
const LIBRARY_VARIABLES = new Set([
  'GCONV_PATH',
  'GETCONF_DIR',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'LOCPATH',
  'NIS_PATH',
  'NLSPATH',
  'RESOLV_HOST_CONF',
  'RES_OPTIONS',
  'TMPDIR',
  'TZDIR',
  // How coreutils read their options (`tail +5`, `uniq +1 a b`), and GNU libintl's log of untranslated messages.
  'POSIXLY_CORRECT',
  '_POSIX2_VERSION',
  'GETTEXT_LOG_UNTRANSLATED',
  'MSGVERB',
  'SEV_LEVEL',
  'DATEMSK',
]);
const LIBRARY_PREFIXES = ['LD_', 'DYLD_', 'MALLOC_', 'Malloc', 'GLIBC_', 'GCONV_', 'LIBC_'];

/**
 * Variables a program reads only to leave out something it would otherwise do: Homebrew's (env_config.rb) turn
 * off its auto-update, analytics, hints, colour and emoji.
 */
const SWITCHES_OFF: Readonly<Record<string, ReadonlySet<string>>> = {
  brew: new Set([
    'HOMEBREW_NO_AUTO_UPDATE',
    'HOMEBREW_NO_ANALYTICS',
    'HOMEBREW_NO_ENV_HINTS',
    'HOMEBREW_NO_COLOR',
    'HOMEBREW_NO_EMOJI',
  ]),
};

/**
 * Whether `NAME=value` in front of `program` leaves what it runs, reads and writes unchanged: a name the
 * harmless list holds, or, for a program of `PRINT_ONLY_ENV`, any name that neither the C library (above), the
 * shell's lookup (`PATH`) nor a program it could start (`variableRisk`) reads for code, files or settings.
 */
export function inertAssignment(program: string, name: string): boolean {
  if (HARMLESS_ENV.has(name)) return true;
  if (SWITCHES_OFF[program]?.has(name)) return true;
  if (!PRINT_ONLY_ENV.has(program)) return false;
  if (LIBRARY_VARIABLES.has(name) || LIBRARY_PREFIXES.some((prefix) => name.startsWith(prefix))) return false;
  return variableRisk(name) === undefined;
}
