import { DYN, type Problem, type Span, type Word } from './types.js';
import { harmlessVariable } from './variables.js';
import { makeWord } from './words.js';

/** Something a command changes in the current shell that later commands depend on. */
export interface StateChange {
  /** The variable (`PATH`), or what else changes (`function ls`, `shopt -s expand_aliases`). */
  what: string;
  /** The builtin or construct that changes it. */
  via: string;
  span: Span;
}

export interface ShellEffects {
  changes: StateChange[];
  problems: Problem[];
}

const BUILTINS = new Set(
  'export declare typeset local readonly printf read mapfile readarray getopts wait unset let test [ set shopt enable hash compgen complete alias unalias jobs'.split(
    ' ',
  ),
);

/** A subscript whose text bash does not evaluate further. */
const PLAIN_SUBSCRIPT = /^(?:\d+|[@*])$/;
const NAME_WORD = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([\s\S]*)\])?$/;

const SET_LETTERS = new Set('euxvfnCbmhBETH');
const SET_OPTIONS = new Set([
  'errexit',
  'nounset',
  'xtrace',
  'verbose',
  'pipefail',
  'noglob',
  'noclobber',
  'noexec',
  'notify',
  'monitor',
  'hashall',
  'braceexpand',
  'errtrace',
  'functrace',
  'ignoreeof',
  'history',
  'histexpand',
  'emacs',
  'vi',
]);
const SHOPT_OPTIONS = new Set([
  'nullglob',
  'failglob',
  'globstar',
  'extglob',
  'inherit_errexit',
  'lastpipe',
  'nocasematch',
  'checkwinsize',
  'histappend',
  'cmdhist',
  'lithist',
  'xpg_echo',
]);

/**
 * What a builtin does to the shell that runs it: the variables it assigns and the other state it changes, and
 * the variable names and arithmetic it evaluates, whose array subscripts run command substitutions
 * (`test -v 'a[$(cmd)]'`). `program` is the command's name; an empty argv is a bare assignment.
 */
export function shellEffects(program: string, argv: readonly Word[]): ShellEffects | undefined {
  if (!BUILTINS.has(program)) return undefined;
  const out = new Collector(program);
  const args = argv.slice(1);
  switch (program) {
    case 'export':
    case 'declare':
    case 'typeset':
    case 'local':
    case 'readonly':
      out.declaration(args);
      break;
    case 'printf':
      out.optionNames(args, '', 'v');
      break;
    case 'read':
      if (!out.optionNames(args, 'dinNptu', 'a')) out.names(out.operands(args, 'dinNptu', 'a'));
      break;
    case 'mapfile':
    case 'readarray':
      out.names(out.operands(args, 'dnOsuCc', ''));
      break;
    case 'getopts':
      if (args[1]) out.names([args[1]]);
      break;
    case 'wait':
      out.optionNames(args, '', 'p');
      break;
    case 'unset':
      out.unset(args);
      break;
    case 'let':
      for (const word of args) out.arithmetic(word);
      break;
    case 'test':
    case '[':
      out.testNames(args);
      break;
    case 'set':
      out.set(args);
      break;
    case 'shopt':
      out.shopt(args);
      break;
    case 'enable':
      if (args.some((w) => !w.static || !w.value.startsWith('-') || /[fnd]/.test(w.value))) {
        out.change(args[0]!, 'which builtins exist');
      }
      break;
    case 'hash':
      if (args.some((w) => !w.static || /^-\w*p/.test(w.value)))
        out.change(args[0]!, 'which program a name runs');
      break;
    case 'alias':
      for (const word of args) {
        const eq = word.value.indexOf('=');
        if (!word.static || eq > 0)
          out.change(word, `alias ${word.static ? word.value.slice(0, eq) : word.text}`);
      }
      break;
    case 'unalias':
      if (args[0]) out.change(args[0], 'aliases');
      break;
    case 'jobs':
      if (args.some((w) => !w.static || /^-\w*x/.test(w.value)))
        out.problem(args[0]!, 'jobs -x runs a command');
      break;
    case 'compgen':
    case 'complete':
      out.codeOption(args, 'AGWXPSFCo', 'WCF');
      break;
  }
  return { changes: out.changes, problems: out.problems };
}

class Collector {
  readonly changes: StateChange[] = [];
  readonly problems: Problem[] = [];

  constructor(private readonly program: string) {}

  change(word: Word, what: string): void {
    this.changes.push({ what, via: this.program, span: word.span });
  }

  problem(word: Word, message: string): void {
    this.problems.push({ code: 'unsupported', message, span: word.span });
  }

  /** A word used as a variable name: `NAME` or `NAME[SUB]`; returns the name when it is known. */
  name(word: Word, assigns: boolean): string | undefined {
    if (!word.static) {
      this.problem(word, `${this.program} uses ${word.text} as a variable name, only known at run time`);
      if (assigns) this.change(word, 'a variable only known at run time');
      return undefined;
    }
    const m = NAME_WORD.exec(word.value);
    if (!m) return undefined;
    const subscript = m[2];
    if (subscript !== undefined && !PLAIN_SUBSCRIPT.test(subscript)) {
      this.problem(
        word,
        `${this.program} evaluates the subscript of ${word.value} as arithmetic, which may run commands`,
      );
    }
    const name = m[1]!;
    if (assigns && !harmlessVariable(name)) this.change(word, name);
    return name;
  }

  names(words: readonly Word[]): void {
    for (const word of words) this.name(word, true);
  }

  /**
   * Scans short options: `values` take a value, `named` take a variable name. Returns whether a name option
   * was present.
   */
  optionNames(args: readonly Word[], values: string, named: string): boolean {
    let found = false;
    this.eachOption(args, values + named, (letter, value) => {
      if (named.includes(letter) && value) {
        found = true;
        this.name(value, true);
      }
    });
    return found;
  }

  codeOption(args: readonly Word[], values: string, code: string): void {
    this.eachOption(args, values, (letter, value, word) => {
      if (!code.includes(letter)) return;
      if (letter === 'W' && value?.static && !/[$`]/.test(value.value)) return;
      this.problem(value ?? word, `${this.program} -${letter} runs code the analysis cannot see`);
    });
  }

  private eachOption(
    args: readonly Word[],
    values: string,
    visit: (letter: string, value: Word | undefined, word: Word) => void,
  ): void {
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!;
      const v = word.value;
      if (!word.static) {
        if (v.startsWith(DYN) || v.startsWith('-'))
          this.problem(word, `${this.program}: ${word.text} may be an option`);
        return;
      }
      if (v === '--' || !v.startsWith('-') || v === '-') return;
      for (let j = 1; j < v.length; j++) {
        const letter = v[j]!;
        if (!values.includes(letter)) {
          visit(letter, undefined, word);
          continue;
        }
        const rest = v.slice(j + 1);
        const value = rest ? { ...word, value: rest, text: rest } : args[++i];
        visit(letter, value, word);
        break;
      }
    }
  }

  /** The operands after the options. */
  operands(args: readonly Word[], values: string, named: string): Word[] {
    let i = 0;
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === '--') return args.slice(i + 1);
      if (!args[i]!.static || !v.startsWith('-') || v === '-') break;
      const letters = v.slice(1);
      const last = [...letters].findIndex((c) => values.includes(c) || named.includes(c));
      if (last >= 0 && last === letters.length - 1) i++;
    }
    return args.slice(i);
  }

  declaration(args: readonly Word[]): void {
    let flags = '';
    let options = true;
    for (const word of args) {
      if (options && word.static && word.value === '--') {
        options = false;
        continue;
      }
      if (options && word.static && /^[-+]/.test(word.value)) {
        flags += word.value.slice(1);
        continue;
      }
      options = false;
      if (/[fF]/.test(flags)) {
        if (/[xr]/.test(flags) || this.program === 'export' || this.program === 'readonly')
          this.change(word, `function ${word.value}`);
        continue;
      }
      if (flags.includes('n')) {
        this.change(word, `a reference to another variable (${word.text})`);
        continue;
      }
      this.declared(word, flags);
    }
  }

  private declared(word: Word, flags: string): void {
    const eq = assignmentEquals(word.value);
    if (eq < 0) {
      if (!flags.includes('p')) this.name(word, true);
      return;
    }
    const head = word.value.slice(0, word.value[eq - 1] === '+' ? eq - 1 : eq);
    const value = word.value.slice(eq + 1);
    const dynamic = head.includes(DYN) ? word.dynamic : [];
    this.name(makeWord(word.text, head, dynamic, word.span), true);
    if (!word.static) return;
    if (/[$`]/.test(value) && (flags.includes('i') || value.startsWith('('))) {
      this.problem(word, `${this.program} evaluates ${word.text} as code`);
    }
    if (flags.includes('i') && !/^[\w\s+\-*/%()]*$/.test(value)) {
      this.problem(word, `${this.program} -i evaluates ${word.text} as arithmetic`);
    }
  }

  unset(args: readonly Word[]): void {
    let functions = false;
    const operands: Word[] = [];
    let options = true;
    for (const word of args) {
      if (options && word.static && word.value === '--') options = false;
      else if (options && word.static && /^-[fvn]+$/.test(word.value)) functions = word.value.includes('f');
      else {
        options = false;
        operands.push(word);
      }
    }
    for (const word of operands) {
      if (functions) this.change(word, `function ${word.value}`);
      else this.name(word, true);
    }
  }

  arithmetic(word: Word): void {
    if (!word.static) return;
    if (/[$`]/.test(word.value)) {
      this.problem(word, `${this.program} evaluates ${word.text} as arithmetic, which may run commands`);
    }
    for (const m of word.value.matchAll(ARITHMETIC_ASSIGNMENT)) {
      const name = m[1] ?? m[2] ?? '';
      if (!harmlessVariable(name)) this.change(word, name);
    }
  }

  testNames(args: readonly Word[]): void {
    for (let i = 0; i < args.length - 1; i++) {
      const op = args[i]!;
      if (op.static && (op.value === '-v' || op.value === '-R')) this.name(args[i + 1]!, false);
    }
  }

  set(args: readonly Word[]): void {
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!;
      if (!word.static) {
        this.change(word, `shell options (${word.text})`);
        return;
      }
      const v = word.value;
      if (v === '--' || v === '-' || !/^[-+]/.test(v)) return;
      for (const letter of v.slice(1)) {
        if (letter === 'o') {
          const option = args[++i];
          if (option && (!option.static || !SET_OPTIONS.has(option.value))) {
            this.change(option, `set -o ${option.text}`);
          }
        } else if (!SET_LETTERS.has(letter)) {
          this.change(word, `set ${v[0]}${letter}`);
        }
      }
    }
  }

  shopt(args: readonly Word[]): void {
    let mode = '';
    for (const word of args) {
      if (!word.static) {
        this.change(word, `shell options (${word.text})`);
        return;
      }
      if (/^-[supqo]+$/.test(word.value)) {
        mode += word.value;
        continue;
      }
      if (!/[su]/.test(mode)) continue;
      const known = mode.includes('o') ? SET_OPTIONS : SHOPT_OPTIONS;
      if (!known.has(word.value)) this.change(word, `shopt ${word.value}`);
    }
  }
}

/** `NAME=`, `NAME+=`, `NAME[...]=`, `NAME op=`, `NAME++`, `++NAME` in an arithmetic expression. */
const ARITHMETIC_ASSIGNMENT =
  /([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_]\w*)/g;

/** The index of the `=` that ends a declaration operand's name, or -1. */
function assignmentEquals(value: string): number {
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '=' && depth === 0) return i;
  }
  return -1;
}
