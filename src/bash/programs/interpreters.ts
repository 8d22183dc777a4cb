import type { CommandView, NestedSpec, Word } from '../types.js';
import {
  type Grammar,
  grammar,
  has,
  lastValue,
  operandWords,
  optionsNamed,
  optionText,
  type Parsed,
  parseOptions,
} from './options.js';
import type { Relocation } from './relocation.js';
import { codeIn, codeSpec, type Handler, parseFailure, unresolved } from './specs.js';
import { is, joinWords, leadingText, singleField } from './words.js';

interface InterpreterRule {
  grammar: Grammar;
  /** Options whose value is program text. */
  code?: string[];
  /** Options naming a module run as the program (`python -m`). */
  modules?: string[];
  /** Options naming the script file (`php -f`). */
  scripts?: string[];
  /** Options loading more code before the program (`node -r`, `ruby -r`). */
  preload?: string[];
  /** Options whose value changes how the interpreter loads code (`php -d`). */
  environment?: string[];
  /** Options that run code the analyzer cannot see in another way (`php -S` serves a directory). */
  programOptions?: string[];
  /** Options with which the interpreter prints something and runs nothing. */
  inert?: string[];
  /** Options that name the program another way (`node --run`): the specs, or undefined. */
  special?: (cmd: CommandView, parsed: Parsed) => NestedSpec[] | undefined;
}

function interpret(rule: InterpreterRule): Handler {
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, rule.grammar);
    if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
    if (has(parsed, ...(rule.inert ?? []))) return [];
    const special = rule.special?.(cmd, parsed);
    if (special) return special;
    const program = cmd.program;
    const carried = (names: string[] | undefined, kind: Parameters<typeof codeIn>[0]) =>
      optionsNamed(parsed, ...(names ?? [])).map((option) =>
        codeIn(kind, program, optionText(option.name), option.value!),
      );
    const specs = [
      ...carried(rule.environment, 'environment'),
      ...carried(rule.preload, 'script-file'),
      ...carried(rule.programOptions, 'program-option'),
    ];
    const code = carried(rule.code, 'interpreter-code');
    if (code.length) return [...specs, ...code];
    const main = [...carried(rule.modules, 'script-file'), ...carried(rule.scripts, 'script-file')];
    if (main.length) return [...specs, ...main];
    if (has(parsed, ...(rule.programOptions ?? []))) return specs;
    return [...specs, operandProgram(cmd, operandWords(cmd.argv, parsed)[0])];
  };
}

/** The first operand names the script; `-` or none means the program comes from stdin. */
function operandProgram(cmd: CommandView, operand: Word | undefined): NestedSpec {
  if (!operand || is(operand, '-')) return codeSpec('stdin', cmd.program, 'stdin', operand ?? cmd.argv[0]!);
  return codeIn('script-file', cmd.program, 'script', operand);
}

const NODE_LONG =
  'eval=/e print=/p require=/r import= loader= experimental-loader= input-type= env-file= ' +
  'env-file-if-exists= conditions=/C run= test watch check/c interactive/i version/v help/h title= inspect? ' +
  'inspect-brk? inspect-port= inspect-wait? max-http-header-size= openssl-config= redirect-warnings= ' +
  'report-dir= report-directory= report-filename= report-signal= secure-heap= secure-heap-min= ' +
  'test-name-pattern= test-reporter= test-reporter-destination= test-shard= test-skip-pattern= ' +
  'test-concurrency= test-timeout= tls-cipher-list= tls-keylog= trace-event-categories= ' +
  'trace-event-file-pattern= unhandled-rejections= use-largepages= v8-pool-size= watch-path= ' +
  'stack-trace-limit= disable-warning= icu-data-dir= dns-result-order= diagnostic-dir= heapsnapshot-signal= ' +
  'heapsnapshot-near-heap-limit= max-old-space-size= max-semi-space-size= localstorage-file= ' +
  'experimental-config-file= permission allow-fs-read= allow-fs-write= allow-addons allow-child-process ' +
  'allow-wasi allow-worker enable-source-maps preserve-symlinks preserve-symlinks-main v8-options ' +
  'abort-on-uncaught-exception expose-gc completion-bash';

const NODE: InterpreterRule = {
  grammar: grammar({
    flags: 'hvic',
    values: 'eprC',
    long: NODE_LONG,
    words: '-pe=/e',
    unlistedFlags:
      /^(no-|experimental-|trace-|enable-|disable-|harmony|frozen-|force-|insecure-|jitless|pending-|prof|throw-|track-|verify-|zero-|use-|cpu-prof|heap-prof|openssl-|security-revert|strip-types)/,
  }),
  code: ['e', 'p'],
  preload: ['r', '--import', '--loader', '--experimental-loader'],
  inert: ['v', 'h', 'c', '--v8-options', '--completion-bash'],
  special: (cmd, parsed) => {
    const script = lastValue(parsed, '--run');
    if (script) return [codeIn('script-file', cmd.program, '--run', script)];
    if (has(parsed, '--test')) return [codeSpec('script-file', cmd.program, '--test', cmd.argv[0]!)];
    return undefined;
  },
};

const RULES: Record<string, InterpreterRule> = {
  python: {
    grammar: grammar({
      flags: 'bBdEhiIOPqsSuvVxR?',
      values: 'cmWX',
      long: 'help/h version/V check-hash-based-pycs= help-env help-xoptions help-all',
      stop: 'c m',
    }),
    code: ['c'],
    modules: ['m'],
    inert: ['h', 'V', '--help-env', '--help-xoptions', '--help-all'],
  },
  node: NODE,
  tsx: NODE,
  'ts-node': {
    grammar: grammar({
      flags: 'hvisTHy',
      values: 'eprPOCID',
      long:
        'eval=/e print=/p require=/r project=/P compiler-options=/O compiler=/C ignore=/I ignore-diagnostics=/D ' +
        'interactive/i transpile-only/T swc files esm cwd= cwd-mode script-mode skip-project pretty ' +
        'skip-ignore prefer-ts-exts log-error emit scope scope-dir= transpiler= help/h version/v',
    }),
    code: ['e', 'p'],
    preload: ['r'],
    inert: ['h', 'v'],
  },
  perl: {
    grammar: grammar({ flags: 'acnpsStTuUwWXvhg', values: 'eEIMm', optional: 'il0FxdDCV' }),
    code: ['e', 'E'],
    inert: ['v', 'h', 'V'],
  },
  ruby: {
    grammar: grammar({
      flags: 'acdhlnpsSvwyU',
      values: 'eIrCEFX',
      optional: 'KTWx0i',
      long:
        'version help copyright verbose yydebug dump= encoding= external-encoding= internal-encoding= ' +
        'backtrace-limit= crash-report= parser= enable= disable=',
      unlistedFlags: /^(disable|enable|jit|yjit|rjit|mjit)/,
    }),
    code: ['e'],
    preload: ['r'],
    inert: ['--version', 'h', '--help', '--copyright'],
  },
  php: {
    grammar: grammar({
      flags: 'aCHhilmnqsvwe',
      values: 'cdfrBRFEtSz',
      long:
        'ini rf= rc= re= rz= ri= define=/d php-ini=/c no-php-ini/n file=/f run=/r process-begin=/B ' +
        'process-code=/R process-file=/F process-end=/E server=/S docroot=/t zend-extension=/z ' +
        'syntax-check/l interactive/a info/i modules/m version/v help/h hide-args/H no-chdir/C strip/w ' +
        'syntax-highlight/s',
    }),
    code: ['r', 'B', 'R', 'E'],
    scripts: ['f', 'F'],
    environment: ['d', 'z', 'c'],
    programOptions: ['S'],
    inert: ['h', 'v', 'i', 'm', 'l', 's', 'w', '--ini', '--rf', '--rc', '--re', '--rz', '--ri'],
  },
  lua: {
    grammar: grammar({ flags: 'ivEW', values: 'el' }),
    code: ['e'],
    preload: ['l'],
    inert: ['v'],
  },
  luajit: {
    grammar: grammar({ flags: 'ivE', values: 'eljOb' }),
    code: ['e'],
    preload: ['l'],
    inert: ['v', 'b'],
  },
  Rscript: {
    grammar: grammar({ words: '-e=/e', long: 'version help', unlistedFlags: /./ }),
    code: ['e'],
    inert: ['--version', '--help'],
  },
  R: {
    grammar: grammar({
      flags: 'qsh',
      values: 'efdg',
      long: 'file=/f debugger=/d gui=/g args version help/h',
      unlistedFlags: /./,
      stop: '--args',
    }),
    code: ['e'],
    scripts: ['f'],
    inert: ['--version', 'h'],
  },
  osascript: {
    grammar: grammar({ flags: 'i', values: 'les' }),
    code: ['e'],
  },
  fish: {
    grammar: grammar({
      flags: 'hPilNnv',
      values: 'cCpdfDo',
      long:
        'command=/c init-command=/C profile=/p debug=/d features=/f debug-output=/o debug-stack-frames=/D ' +
        'interactive/i login/l no-execute/n no-config/N private/P print-rusage-self print-debug-categories ' +
        'profile-startup= help/h version/v',
    }),
    code: ['c', 'C'],
    inert: ['h', 'v', 'n', '--print-debug-categories'],
  },
};

interface PwshParameter {
  name: string;
  value: boolean;
  aliases: string[];
}

const PWSH: PwshParameter[] = [
  ['Command', true, 'c'],
  ['File', true, 'f'],
  ['EncodedCommand', true, 'e ec enc'],
  ['CommandWithArgs', true, 'cwa'],
  ['ExecutionPolicy', true, 'ex ep'],
  ['WorkingDirectory', true, 'wd'],
  ['InputFormat', true, 'inp if'],
  ['OutputFormat', true, 'o of'],
  ['WindowStyle', true, 'w'],
  ['ConfigurationName', true, 'config'],
  ['ConfigurationFile', true, ''],
  ['CustomPipeName', true, ''],
  ['SettingsFile', true, 'settings'],
  ['NoProfile', false, 'nop'],
  ['NonInteractive', false, 'noni'],
  ['NoLogo', false, 'nol'],
  ['NoExit', false, 'noe'],
  ['Interactive', false, 'i'],
  ['Login', false, 'l'],
  ['MTA', false, ''],
  ['STA', false, ''],
  ['NoProfileLoadTime', false, ''],
  ['Version', false, 'v'],
  ['Help', false, 'h ?'],
].map(([name, value, aliases]) => ({
  name: name as string,
  value: value as boolean,
  aliases: (aliases as string).split(' ').filter(Boolean),
}));

function pwshParameter(key: string): PwshParameter | undefined {
  const lower = key.toLowerCase();
  const exact = PWSH.find(
    (parameter) =>
      parameter.name.toLowerCase() === lower || parameter.aliases.some((alias) => alias === lower),
  );
  if (exact) return exact;
  const prefixed = PWSH.filter((parameter) => parameter.name.toLowerCase().startsWith(lower));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** pwsh, powershell: parameters are case-insensitive and may be abbreviated; -Command takes the rest. */
function powershell(cmd: CommandView): NestedSpec[] {
  const words = cmd.argv;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!word.static || !singleField(word)) {
      if (lead === '' || /^[-/]/.test(lead))
        return [unresolved(`${cmd.program}: ${word.text} may be a parameter`, word)];
    }
    if (is(word, '-')) return [codeSpec('stdin', cmd.program, 'stdin', word)];
    const match = /^--?([A-Za-z?]+)$/.exec(lead);
    if (!match && lead.startsWith('-'))
      return [unresolved(`${cmd.program}: unknown parameter ${word.text}`, word)];
    if (!match) {
      const rest = words.slice(i);
      if (cmd.program === 'powershell')
        return [codeIn('interpreter-code', cmd.program, '-Command', joinWords(rest))];
      return [codeIn('script-file', cmd.program, '-File', word)];
    }
    const parameter = pwshParameter(match[1]!);
    if (!parameter) return [unresolved(`${cmd.program}: unknown parameter ${word.value}`, word)];
    if (parameter.name === 'Version' || parameter.name === 'Help') return [];
    if (!parameter.value) continue;
    const value = words[i + 1];
    if (!value) return [];
    if (parameter.name === 'Command' || parameter.name === 'CommandWithArgs') {
      if (is(value, '-')) return [codeSpec('stdin', cmd.program, '-Command', value)];
      return [codeIn('interpreter-code', cmd.program, `-${parameter.name}`, joinWords(words.slice(i + 1)))];
    }
    if (parameter.name === 'EncodedCommand')
      return [codeIn('interpreter-code', cmd.program, '-EncodedCommand', value)];
    if (parameter.name === 'File') {
      if (is(value, '-')) return [codeSpec('stdin', cmd.program, '-File', value)];
      return [codeIn('script-file', cmd.program, '-File', value)];
    }
    i++;
  }
  return [codeSpec('stdin', cmd.program, 'stdin', words[0]!)];
}

const DENO = grammar({
  flags: 'AqrhV',
  values: 'cLI',
  long: 'config=/c import-map= cert= location= seed= log-level=/L ext= preload= require= help/h version/V',
  unlistedFlags: /./,
});

const DENO_INERT = new Set([
  'install',
  'i',
  'add',
  'remove',
  'uninstall',
  'outdated',
  'fmt',
  'lint',
  'check',
  'info',
  'doc',
  'types',
  'completions',
  'upgrade',
  'init',
  'publish',
  'clean',
  'cache',
  'coverage',
  'vendor',
  'help',
  'lsp',
  'compile',
  'approve-scripts',
]);

/** The first operand after `start`, or unknown when an unlisted option might have taken it as its value. */
export function firstOperand(
  cmd: CommandView,
  start: number,
  g: Grammar,
): { operand?: Word; rest: Word[]; sure: boolean } {
  const parsed = parseOptions(cmd.argv, start, g, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return { rest: [], sure: false };
  const operands = operandWords(cmd.argv, parsed);
  const sure = parsed.unknown.length === 0 && parsed.suspects.length === 0;
  return { ...(operands[0] ? { operand: operands[0] } : {}), rest: operands.slice(1), sure };
}

export function scriptNamed(
  cmd: CommandView,
  via: string,
  found: ReturnType<typeof firstOperand>,
  at: Word,
): NestedSpec {
  const word = found.operand;
  const code = word?.static && found.sure ? word.value : undefined;
  return codeSpec('script-file', cmd.program, via, word ?? at, code);
}

function deno(cmd: CommandView): NestedSpec[] {
  const top = firstOperand(cmd, 1, DENO);
  const sub = top.operand;
  if (!sub) {
    const parsed = parseOptions(cmd.argv, 1, DENO, { unknown: 'flag', dynamic: 'operand' });
    return parsed.ok && has(parsed, 'h', 'V') ? [] : [codeSpec('stdin', 'deno', 'repl', cmd.argv[0]!)];
  }
  const index = cmd.argv.indexOf(sub);
  if (!sub.static) return [unresolved('deno subcommand only known at run time', sub)];
  if (DENO_INERT.has(sub.value)) return [];
  if (sub.value === 'repl') return [codeSpec('stdin', 'deno', 'repl', sub)];
  if (sub.value === 'eval') {
    const found = firstOperand(cmd, index + 1, DENO);
    return [
      codeSpec(
        'interpreter-code',
        'deno',
        'eval',
        found.operand ?? sub,
        found.sure ? found.operand?.value : undefined,
      ),
    ];
  }
  if (['run', 'test', 'bench', 'serve', 'task', 'x', 'jupyter'].includes(sub.value)) {
    return [scriptNamed(cmd, `deno ${sub.value}`, firstOperand(cmd, index + 1, DENO), sub)];
  }
  return [scriptNamed(cmd, 'deno', top, sub)];
}

/** The interpreters above whose options make them take their code from another place (`ProgramModule.relocation`). */
export const INTERPRETER_RELOCATIONS: Readonly<Record<string, Relocation>> = {
  deno: { values: ['--config', '-c', '--import-map', '--cwd', '--preload'] },
};

export const INTERPRETERS: Record<string, Handler> = {
  ...Object.fromEntries(Object.entries(RULES).map(([name, rule]) => [name, interpret(rule)])),
  pwsh: powershell,
  powershell,
  deno,
};
