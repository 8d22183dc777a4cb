import type { Assignment, CommandView, NestedSpec, Word } from '../types.js';
import { variableSpec } from './environment.js';
import {
  type Grammar,
  grammar,
  has,
  lastValue,
  operandWords,
  optionsNamed,
  type Parsed,
  parseOptions,
} from './options.js';
import { argvSpec, codeIn, codeSpec, type Handler, parseFailure, shellSpec, unresolved } from './specs.js';
import {
  assignmentName,
  is,
  joinWords,
  leadingText,
  quotedWords,
  runtimeWord,
  singleField,
  syntheticWord,
  wordAssignment,
} from './words.js';

interface Context {
  cmd: CommandView;
  words: Word[];
  parsed: Parsed;
  /** Operands left for the wrapped command; a rule's `special` may drop some. */
  operands: Word[];
}

interface WrapperRule {
  grammar: Grammar;
  /** Options may follow operands (util-linux su). */
  permute?: boolean;
  /** Operands the wrapper itself takes before the command: timeout's duration, chroot's root. */
  positional?: number;
  /** `NAME=value` operands before the command set its environment. */
  assignments?: boolean;
  /** Options with which the wrapper runs no command. */
  inert?: string[];
  /** The wrapper appends arguments only known at run time. */
  extraArgs?: boolean;
  /** Without a command: run nothing (default), start the user's shell, or run something else. */
  bare?: 'shell' | ((ctx: Context) => NestedSpec[]);
  /** Options that change what runs: return the specs, or undefined to run the operands as a command. */
  special?: (ctx: Context) => NestedSpec[] | undefined;
  /** What options load or set besides the command (fakeroot --lib, strace -E NAME=value). */
  also?: (ctx: Context) => NestedSpec[];
  /**
   * The options with which the wrapper only runs its command, by the names the grammar reports them under: neither prompting nor setting the command's environment (xargs -p, --process-slot-var).
   */
  only?: string;
}

/**
 * `xargs -I R` (`-i`, `--replace`: R `{}` by default) writes each input line in place of R wherever a word of the
 * command holds it, the program's name too: a name holding R is only known at run time. The other words are kept
 * as written, so that deny rules still see them (`sh -c 'rm -rf {}'`); the command gets arguments at run time.
 */
function xargsReplace(ctx: Context): NestedSpec[] | undefined {
  const option = optionsNamed(ctx.parsed, 'I').at(-1) ?? optionsNamed(ctx.parsed, 'i').at(-1);
  if (!option) return undefined;
  if (option.value && !option.value.static)
    return [unresolved('xargs -I with a string only known at run time', option.value)];
  const replace = option.value ? option.value.value : '{}';
  if (ctx.operands.length === 0) return undefined;
  const [program, ...rest] = ctx.operands as [Word, ...Word[]];
  if (!program.static || !program.value.includes(replace)) return undefined;
  return [argvSpec([runtimeWord(program.text, program.span), ...rest], 'xargs', { extraArgs: true })];
}

const HELP = 'help version';

function interactiveShell(ctx: Context): NestedSpec[] {
  return [unresolved(`${ctx.cmd.program} without a command runs an interactive shell`, ctx.words[0]!)];
}

function wrap(rule: WrapperRule): Handler {
  return (cmd) => {
    const words = cmd.argv;
    const parsed = parseOptions(words, 1, rule.grammar, { permute: rule.permute ?? false });
    if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
    if (has(parsed, '--help', '--version', ...(rule.inert ?? []))) return [];
    const ctx: Context = { cmd, words, parsed, operands: operandWords(words, parsed) };
    const also = rule.also?.(ctx) ?? [];
    return [...also, ...(rule.special?.(ctx) ?? runOperands(rule, ctx))];
  };
}

function runOperands(rule: WrapperRule, ctx: Context): NestedSpec[] {
  const positional = rule.positional ?? 0;
  if (ctx.operands.length < positional) return [];
  const split = ctx.operands.slice(0, positional).find((word) => !singleField(word));
  if (split) return [unresolved(`${ctx.cmd.program}: ${split.text} may expand to several words`, split)];
  let rest = ctx.operands.slice(positional);
  const assignments: Assignment[] = [];
  while (rule.assignments && rest[0]) {
    const word = rest[0];
    const name = assignmentName(word);
    if (name === null) break;
    if (name === 'dynamic' || !singleField(word)) {
      return [unresolved(`${ctx.cmd.program}: ${word.text} may be an assignment or the command`, word)];
    }
    assignments.push(wordAssignment(word, name));
    rest = rest.slice(1);
  }
  if (rest.length === 0) {
    if (rule.bare === 'shell') return interactiveShell(ctx);
    return rule.bare ? rule.bare(ctx) : [];
  }
  return [argvSpec(rest, ctx.cmd.program, { extraArgs: rule.extraArgs ?? false, assignments })];
}

/** The words after option `name`'s value: what a carrier appends to a string option (env -S). */
function wordsAfter(ctx: Context, name: string): Word[] {
  const option = optionsNamed(ctx.parsed, name).at(-1)!;
  const attached = option.value !== ctx.words[option.index + 1];
  return ctx.words.slice(option.index + (attached ? 1 : 2));
}

const SH_COMPATIBLE = /(^|\/)(sh|bash|dash|zsh|ksh|mksh|ash)$/;

/** su, runuser: `-c STRING` runs STRING with the target user's shell; otherwise the shell runs interactively. */
function suSpecial(ctx: Context): NestedSpec[] {
  const command = lastValue(ctx.parsed, 'c');
  const shell = lastValue(ctx.parsed, 's');
  let operands = ctx.operands;
  if (is(operands[0], '-')) operands = operands.slice(1);
  if (command) {
    if (shell && !(shell.static && SH_COMPATIBLE.test(shell.value))) {
      return [codeIn('interpreter-code', shell.static ? shell.value : ctx.cmd.program, '-c', command)];
    }
    return [shellSpec(command, `${ctx.cmd.program} -c`)];
  }
  if (lastValue(ctx.parsed, 'u')) {
    return operands.length ? [argvSpec(operands, ctx.cmd.program)] : interactiveShell(ctx);
  }
  if (operands.length > 1) {
    return [unresolved(`${ctx.cmd.program} passes its arguments to the user's login shell`, operands[1]!)];
  }
  return interactiveShell(ctx);
}

const SU_LONG =
  'command=/c session-command=/c fast/f group=/g supp-group=/G login/l preserve-environment/m pty/P shell=/s whitelist-environment=/w';

const RULES: Record<string, WrapperRule> = {
  timeout: {
    grammar: grammar({
      flags: 'fpv',
      values: 'ks',
      long: `foreground/f preserve-status/p verbose/v kill-after=/k signal=/s ${HELP}`,
      abbreviate: true,
    }),
    positional: 1,
  },
  nice: {
    grammar: grammar({ values: 'n', numeric: true, long: `adjustment=/n ${HELP}`, abbreviate: true }),
  },
  nohup: { grammar: grammar({ long: HELP }) },
  stdbuf: {
    grammar: grammar({ values: 'ioe', long: `input=/i output=/o error=/e ${HELP}`, abbreviate: true }),
  },
  time: {
    grammar: grammar({
      flags: 'pvaq',
      values: 'of',
      long: `portability/p verbose/v append/a quiet/q output=/o format=/f ${HELP}`,
      abbreviate: true,
    }),
  },
  command: { grammar: grammar({ flags: 'pvV' }), inert: ['v', 'V'] },
  builtin: { grammar: grammar({}) },
  exec: { grammar: grammar({ flags: 'cl', values: 'a' }) },
  env: {
    grammar: grammar({
      flags: 'i0v',
      values: 'uCSa',
      long:
        'ignore-environment/i null/0 unset=/u chdir=/C split-string=/S debug/v argv0=/a default-signal? ' +
        `ignore-signal? block-signal? list-signal-handling ${HELP}`,
      abbreviate: true,
    }),
    assignments: true,
    // Emptying the environment or removing a variable from it leaves the command its programs' defaults.
    only: 'i u v',
    special: (ctx) => {
      if (is(ctx.operands[0], '-')) ctx.operands = ctx.operands.slice(1);
      const split = lastValue(ctx.parsed, 'S');
      if (!split) return undefined;
      // env -S has its own escapes (\_ is a space, \c ends the string) that a shell parse would misread.
      if (!split.static || split.value.includes('\\')) {
        return [unresolved('env -S splits a string by its own rules', split)];
      }
      const rest = wordsAfter(ctx, 'S');
      const tail = rest.length ? quotedWords(rest) : undefined;
      const value = `env ${split.value}${tail ? ` ${tail.value}` : ''}`;
      return [
        shellSpec({ ...split, value, static: tail?.static ?? true, dynamic: tail?.dynamic ?? [] }, 'env -S'),
      ];
    },
  },
  sudo: {
    grammar: grammar({
      flags: 'AbBEeHiKklnNPSsVv',
      values: 'aCcDgpRrTtUu',
      optional: 'h',
      long:
        'askpass/A background/b bell/B close-from=/C login-class=/c chdir=/D preserve-env?/E edit/e ' +
        'group=/g set-home/H help host=/h login/i remove-timestamp/K reset-timestamp/k list/l ' +
        'non-interactive/n no-update/N preserve-groups/P prompt=/p chroot=/R role=/r stdin/S shell/s ' +
        'type=/t command-timeout=/T other-user=/U user=/u version/V validate/v auth-type=/a',
      abbreviate: true,
    }),
    assignments: true,
    inert: ['l', 'V', 'K', 'v'],
    special: (ctx) => {
      const host = optionsNamed(ctx.parsed, 'h');
      if (host.some((option) => option.value === undefined)) return [];
      if (has(ctx.parsed, 'e')) return [codeSpec('program-option', 'sudo', '-e', ctx.words[0]!)];
      if (has(ctx.parsed, 's', 'i')) {
        if (ctx.operands.length === 0) return interactiveShell(ctx);
        return [shellSpec(joinWords(ctx.operands), has(ctx.parsed, 'i') ? 'sudo -i' : 'sudo -s')];
      }
      return undefined;
    },
  },
  sudoedit: {
    grammar: grammar({}),
    special: (ctx) => [codeSpec('program-option', 'sudoedit', 'sudoedit', ctx.words[0]!)],
  },
  doas: {
    grammar: grammar({ flags: 'Lns', values: 'Cu' }),
    inert: ['C', 'L'],
    special: (ctx) => (has(ctx.parsed, 's') ? interactiveShell(ctx) : undefined),
  },
  su: {
    grammar: grammar({ flags: 'flmpP', values: 'cgGsw', long: `${SU_LONG} ${HELP}`, abbreviate: true }),
    permute: true,
    special: suSpecial,
  },
  runuser: {
    grammar: grammar({
      flags: 'flmpP',
      values: 'cgGswu',
      long: `${SU_LONG} user=/u ${HELP}`,
      abbreviate: true,
    }),
    permute: true,
    special: suSpecial,
  },
  xargs: {
    grammar: grammar({
      flags: '0prtxo',
      values: 'aEILndsPJRS',
      optional: 'eil',
      long:
        'null/0 arg-file=/a delimiter=/d eof?/e replace?/i max-lines?/l max-args=/n interactive/p ' +
        `no-run-if-empty/r max-chars=/s verbose/t exit/x max-procs=/P process-slot-var= open-tty/o show-limits ${HELP}`,
      abbreviate: true,
    }),
    extraArgs: true,
    only: '0 a d e E i I l L n r s t x P --show-limits',
    bare: (ctx) => [argvSpec([syntheticWord('echo', ctx.words[0]!.span)], 'xargs', { extraArgs: true })],
    special: xargsReplace,
  },
  watch: {
    grammar: grammar({
      flags: 'bcCegprtwx',
      optional: 'd',
      values: 'nq',
      long:
        'beep/b color/c no-color/C differences?/d errexit/e chgexit/g interval=/n precise/p equexit=/q ' +
        `no-rerun/r no-title/t no-wrap/w exec/x ${HELP}`,
      abbreviate: true,
    }),
    special: (ctx) => {
      if (has(ctx.parsed, 'x') || ctx.operands.length === 0) return undefined;
      return [shellSpec(joinWords(ctx.operands), 'watch')];
    },
  },
  setsid: { grammar: grammar({ flags: 'cfw', long: `ctty/c fork/f wait/w ${HELP}`, abbreviate: true }) },
  ionice: {
    grammar: grammar({
      flags: 't',
      values: 'cnpPu',
      long: `class=/c classdata=/n ignore/t pid=/p pgid=/P uid=/u ${HELP}`,
      abbreviate: true,
    }),
    inert: ['p', 'P', 'u'],
  },
  flock: {
    grammar: grammar({
      flags: 'sxeunoF',
      values: 'wE',
      long:
        'shared/s exclusive/x unlock/u nonblock/n nb/n close/o no-fork/F wait=/w timeout=/w ' +
        `conflict-exit-code=/E verbose ${HELP}`,
      abbreviate: true,
    }),
    positional: 1,
    special: (ctx) => {
      if (!is(ctx.operands[1], '-c', '--command')) return undefined;
      const script = ctx.operands[2];
      return script ? [shellSpec(script, 'flock -c')] : [];
    },
  },
  chroot: {
    grammar: grammar({ long: `userspec= groups= skip-chdir ${HELP}`, abbreviate: true }),
    positional: 1,
    bare: 'shell',
  },
  nsenter: {
    grammar: grammar({
      flags: 'aFZec',
      optional: 'muinpUCTrw',
      values: 'tSGW',
      long:
        'target=/t mount?/m uts?/u ipc?/i net?/n pid?/p user?/U cgroup?/C time?/T all/a setuid=/S ' +
        'setgid=/G preserve-credentials keep-caps root?/r wd?/w wdns=/W env/e no-fork/F follow-context/Z ' +
        `join-cgroup/c user-parent ${HELP}`,
      abbreviate: true,
    }),
    bare: 'shell',
  },
  unshare: {
    grammar: grammar({
      flags: 'frc',
      optional: 'muinpUCT',
      values: 'RwSGl',
      long:
        'mount?/m uts?/u ipc?/i net?/n pid?/p user?/U cgroup?/C time?/T fork/f kill-child? mount-proc? ' +
        'mount-binfmt? map-root-user/r map-current-user/c map-user= map-group= map-users= map-groups= ' +
        'map-auto propagation= setgroups= keep-caps monotonic= boottime= root=/R wd=/w setuid=/S ' +
        `setgid=/G load-interp=/l ${HELP}`,
      abbreviate: true,
    }),
    bare: 'shell',
  },
  script: {
    grammar: grammar({
      flags: 'aefq',
      values: 'cBEIOTmo',
      optional: 't',
      long:
        'append/a command=/c echo=/E return/e flush/f force log-io=/B log-in=/I log-out=/O log-timing=/T ' +
        `logging-format=/m output-limit=/o quiet/q timing?/t ${HELP}`,
      abbreviate: true,
    }),
    permute: true,
    special: (ctx) => {
      const command = lastValue(ctx.parsed, 'c');
      return command ? [shellSpec(command, 'script -c')] : interactiveShell(ctx);
    },
  },
  pkexec: {
    grammar: grammar({ long: `user= disable-internal-agent keep-cwd ${HELP}`, abbreviate: true }),
    bare: 'shell',
  },
  fakeroot: {
    grammar: grammar({ flags: 'u', values: 'lsib', long: `lib=/l faked= unknown-is-real/u ${HELP}` }),
    bare: 'shell',
    also: (ctx) =>
      optionsNamed(ctx.parsed, 'l', '--faked').map((option) =>
        codeIn('environment', 'fakeroot', option.name === 'l' ? '--lib' : option.name, option.value!),
      ),
  },
  taskset: {
    grammar: grammar({ flags: 'acp', long: `all-tasks/a cpu-list/c pid/p ${HELP}` }),
    inert: ['p'],
    positional: 1,
  },
  chrt: {
    grammar: grammar({
      flags: 'abdfiorRmpv',
      values: 'TPD',
      long:
        'all-tasks/a batch/b deadline/d fifo/f idle/i other/o rr/r reset-on-fork/R sched-runtime=/T ' +
        `sched-period=/P sched-deadline=/D pid/p max/m verbose/v ${HELP}`,
    }),
    inert: ['p', 'm'],
    positional: 1,
  },
  strace: {
    grammar: grammar({ flags: 'AcCdDfFhiknNqrtTvVwxyzZ', values: 'abeEIoOpPsSuUX' }),
    special: (ctx) => (has(ctx.parsed, 'p') && ctx.operands.length === 0 ? [] : undefined),
    also: (ctx) =>
      optionsNamed(ctx.parsed, 'E').flatMap((option) => {
        const setting = option.value!;
        const name = assignmentName(setting);
        if (name === 'dynamic')
          return [unresolved('strace -E sets a variable only known at run time', setting)];
        const spec = name && variableSpec('strace', name, wordAssignment(setting, name).value, setting.span);
        return spec ? [spec] : [];
      }),
  },
  caffeinate: { grammar: grammar({ flags: 'disum', values: 'tw' }) },
  // macOS arch(1): runs the program under the architecture named (`-x86_64`, `-arch arm64`); not `-e`/`-d`
  // (they set or unset the program's environment) nor `-c` (clears it).
  arch: {
    grammar: grammar({
      words: '-arch= -32 -64 -i386 -x86_64 -x86_64h -arm64 -arm64e -arm64_32 -ppc -ppc64',
      abbreviate: false,
    }),
  },
  unbuffer: { grammar: grammar({ flags: 'p' }) },
  entr: {
    grammar: grammar({ flags: 'acdnprsz' }),
    special: (ctx) => {
      const utility = ctx.operands[0];
      if (!utility) return [];
      if (has(ctx.parsed, 's')) return [shellSpec(utility, 'entr -s')];
      const extraArgs = ctx.operands.some((word) => is(word, '/_'));
      return [argvSpec(ctx.operands, 'entr', { extraArgs })];
    },
  },
  newgrp: { grammar: grammar({}), special: interactiveShell },
};

const BSD_SCRIPT = grammar({ flags: 'aq' });

/**
 * BSD script(1) (macOS): `script [-aq] FILE COMMAND…` runs COMMAND, recording the session into FILE (the
 * file is decided as a write). util-linux script takes no command words and stops at once with "unexpected
 * number of arguments", before it opens any file: either way nothing else runs. A line util-linux would run
 * (one operand at most, once its options are permuted: `script -q out -c cmd`) is read as util-linux reads it.
 */
function bsdScript(cmd: CommandView): NestedSpec[] {
  const rule = RULES.script!;
  const linux = parseOptions(cmd.argv, 1, rule.grammar, { permute: true });
  const linuxRuns = linux.ok && linux.operands.length <= 1;
  const parsed = parseOptions(cmd.argv, 1, BSD_SCRIPT, { permute: false });
  if (!linuxRuns && cmd.argv.every((word) => word.static) && parsed.ok && parsed.operands.length >= 2) {
    return [argvSpec(operandWords(cmd.argv, parsed).slice(1), 'script')];
  }
  return wrap(rule)(cmd);
}

/** busybox APPLET ARGS: the applet is the program; `busybox --list` and the like run nothing. */
function busybox(cmd: CommandView): NestedSpec[] {
  const applet = cmd.argv[1];
  if (!applet) return [];
  const lead = leadingText(applet);
  if (lead === '' && !applet.static) return [unresolved('busybox applet only known at run time', applet)];
  if (lead.startsWith('-')) return [];
  return [argvSpec(cmd.argv.slice(1), 'busybox')];
}

/** sg [-] GROUP [-c] COMMAND: COMMAND is run by /bin/sh -c. */
function sg(cmd: CommandView): NestedSpec[] {
  let rest = cmd.argv.slice(1);
  if (is(rest[0], '-')) rest = rest.slice(1);
  rest = rest.slice(1);
  if (is(rest[0], '-c')) rest = rest.slice(1);
  if (rest.length === 0) return [unresolved('sg without a command runs an interactive shell', cmd.argv[0]!)];
  return [shellSpec(joinWords(rest), 'sg')];
}

/**
 * Whether a wrapper's own options only make it run its command (`xargs -0 -n1`): every option parses and is on
 * its list. Undefined for a wrapper without one.
 */
export function onlyRunsCommand(cmd: CommandView): boolean | undefined {
  const rule = Object.hasOwn(RULES, cmd.program) ? RULES[cmd.program]! : undefined;
  if (!rule?.only) return undefined;
  const parsed = parseOptions(cmd.argv, 1, rule.grammar, { permute: rule.permute ?? false, unknown: 'fail' });
  if (!parsed.ok) return false;
  const only = new Set(rule.only.split(' '));
  return parsed.options.every((option) => only.has(option.name));
}

/** How a wrapper's own options are read, for the files they name. */
export function wrapperSyntax(program: string): { grammar: Grammar; permute: boolean } {
  const rule = RULES[program]!;
  return { grammar: rule.grammar, permute: rule.permute ?? false };
}

export const WRAPPERS: Record<string, Handler> = {
  ...Object.fromEntries(Object.entries(RULES).map(([name, rule]) => [name, wrap(rule)])),
  script: bsdScript,
  busybox,
  sg,
  parallel: parallelHandler,
};

const PARALLEL = grammar({
  flags: '0ekqrtuvXmgh',
  values: 'ajPNnLlIdEsSCM',
  long:
    'null/0 arg-file=/a jobs=/j max-procs=/P max-args=/n max-lines=/L max-replace-args=/N delimiter=/d ' +
    'eof=/E replace=/I max-chars=/s sshlogin=/S sshloginfile= slf= colsep=/C joblog= results= res= ' +
    'halt= halt-on-error= delay= timeout= retries= tag-string= tagstring= block= block-size= load= ' +
    'memfree= nice= tmpdir= workdir= wd= basefile= bf= return= transfer-file= tf= env= header= ssh= ' +
    'sshdelay= recend= recstart= regexp tag keep-order/k pipe spreadstdin pipepart quote/q xargs ' +
    'ungroup/u line-buffer lb group dry-run verbose/v will-cite no-notice progress bar eta ' +
    'no-run-if-empty/r round-robin shuf plus fg bg semaphore id= fifo cat citation transfer cleanup ' +
    'linebuffer group-by= shebang shebang-wrap halt-on-error= termseq= onall nonall tty help version',
  abbreviate: false,
});

const SEPARATORS = [':::', '::::', ':::+', '::::+'];

/**
 * GNU parallel joins the command words and runs them with a shell, once per input: before `:::` it is
 * the command; without one, each `:::` argument (or each input line) is itself a command line.
 */
function parallelHandler(cmd: CommandView): NestedSpec[] {
  const words = cmd.argv;
  const separator = words.findIndex((word, index) => index > 0 && is(word, ...SEPARATORS));
  const end = separator < 0 ? words.length : separator;
  const parsed = parseOptions(words, 1, PARALLEL, { end });
  if (!parsed.ok) return [parseFailure('parallel', parsed)];
  if (has(parsed, '--help', '--version', '--citation')) return [];
  const specs: NestedSpec[] = optionsNamed(parsed, '--ssh').map((option) =>
    shellSpec(option.value!, 'parallel --ssh'),
  );
  const command = words.slice(parsed.rest, end);
  if (command.length > 0) return [...specs, shellSpec(joinWords(command), 'parallel', true)];
  if (separator >= 0 && is(words[separator], ':::', ':::+')) {
    const lines: Word[] = [];
    for (const word of words.slice(separator + 1)) {
      if (is(word, ...SEPARATORS)) break;
      lines.push(word);
    }
    return [...specs, ...lines.map((line) => shellSpec(line, 'parallel'))];
  }
  const file = separator >= 0 ? words[separator + 1] : lastValue(parsed, 'a');
  if (file) return [...specs, codeIn('script-file', 'parallel', separator >= 0 ? '::::' : '-a', file)];
  return [...specs, codeSpec('stdin', 'parallel', 'input lines', words[0]!)];
}
