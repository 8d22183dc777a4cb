import type { CommandView, NestedSpec, Word } from '../types.js';
import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, optionsNamed, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { shellSpec, unresolved } from './specs.js';

/**
 * Options a later fzf added (0.39 to 0.6x, its `src/options.go` and `man fzf`) that only change what the finder
 * shows, how it matches or what it prints: fzf 0.38 refuses them. `[=STYLE]` values fzf takes from the next word
 * too, when it starts with neither `-` nor `+`: read here as attached only, such a word is an operand and the line
 * is not read-only. Not `--tmux`/`--popup` (run tmux), `--with-shell`, `--info-command` (run commands),
 * `--walker*` (walk folders when stdin is a terminal), `--listen-unsafe`, `--man` (runs man).
 */
const NEWER =
  'ignore-case no-ignore-case smart-case no-tty-default highlight-line no-highlight-line multi-line ' +
  'no-multi-line raw no-raw track no-track no-tail no-gap no-input ambidouble bash zsh fish nushell no-wrap ' +
  'wrap-word no-wrap-word no-preview-border no-header-border no-footer-border no-header-lines-border ' +
  'no-header-label no-footer-label no-id-nth accept-nth= tail= style= wrap-sign= preview-wrap-sign= footer= ' +
  'footer-label= footer-label-pos= header-label= header-label-pos= id-nth= ghost= gutter= gutter-raw= ' +
  'marker-multi-line= freeze-left= freeze-right= list-label= list-label-pos= input-label= input-label-pos= ' +
  'wrap? gap? gap-line? preview-border? header-border? header-lines-border? footer-border? list-border? ' +
  'input-border?';

/**
 * fzf 0.38's options, as its own parser reads them (`fzf --help` lists most; the parser also takes `--phony`,
 * `--no-phony`, `--enabled`, `--black`, `--no-256`, `--no-bold`...). It takes no operands, no abbreviations and no
 * clusters; `-q`, `-f`, `-d` and `-n` take a value attached or in the next word, `-m` and `-s` only an attached one.
 * The options a later fzf added are those of `NEWER`; any other is unknown here, so a line holding one is never
 * read-only.
 */
const FZF = grammar({
  flags: 'hxei10',
  values: 'qfdn',
  optional: 'ms',
  plus: true,
  long:
    'help/h version extended/x exact/e extended-exact no-extended no-exact query=/q filter=/f literal ' +
    'no-literal algo= scheme= expect= no-expect enabled no-phony disabled phony tiebreak= bind= color? ' +
    'toggle-sort= delimiter=/d nth=/n with-nth= sort?/s no-sort tac no-tac multi?/m no-multi ansi no-ansi ' +
    'no-mouse no-color no-256 black no-black bold no-bold layout= reverse no-reverse cycle no-cycle ' +
    'keep-right no-keep-right hscroll no-hscroll hscroll-off= scroll-off= filepath-word no-filepath-word ' +
    'info= no-info inline-info no-inline-info separator= no-separator scrollbar? no-scrollbar jump-labels= ' +
    'select-1/1 no-select-1 exit-0/0 no-exit-0 read0 no-read0 print0 no-print0 print-query no-print-query ' +
    'prompt= pointer= marker= sync no-sync async no-history history= history-size= no-header ' +
    'no-header-lines header= header-lines= header-first no-header-first ellipsis= preview= no-preview ' +
    'preview-window= height= min-height= no-height no-margin no-padding no-border border? no-border-label ' +
    'border-label= border-label-pos= no-preview-label preview-label= preview-label-pos= no-unicode unicode ' +
    'margin= padding= tabstop= listen= no-listen clear no-clear ' +
    NEWER,
  abbreviate: false,
});

/**
 * What fzf only reads with: the matching, sorting and output options, and those of the finder's screen (layout,
 * colours, labels, the preview window's shape). `--preview` and `--bind` are listed too: the commands they run
 * are decided on their own, as nested commands (`nested` below), and a binding is read-only only when each of its
 * actions is known (`bindingProblem`). Not `--history` (creates and writes its file, even in filter mode) or
 * `--listen` (a server that takes actions).
 */
const READ_ONLY =
  'h --version x e --extended-exact +x --no-extended +e --no-exact q f --literal --no-literal --algo --scheme ' +
  '--expect --no-expect --enabled --no-phony --disabled --phony --tiebreak --color --toggle-sort d n ' +
  '--with-nth s +s --no-sort --tac --no-tac i +i m +m --no-multi --ansi --no-ansi --no-mouse +c --no-color ' +
  '+2 --no-256 --black --no-black --bold --no-bold --layout --reverse --no-reverse --cycle --no-cycle ' +
  '--keep-right --no-keep-right --hscroll --no-hscroll --hscroll-off --scroll-off --filepath-word ' +
  '--no-filepath-word --info --no-info --inline-info --no-inline-info --separator --no-separator --scrollbar ' +
  '--no-scrollbar --jump-labels 1 +1 --no-select-1 0 +0 --no-exit-0 --read0 --no-read0 --print0 --no-print0 ' +
  '--print-query --no-print-query --prompt --pointer --marker --sync --no-sync --async --no-history ' +
  '--no-header --no-header-lines --header --header-lines --header-first --no-header-first --ellipsis ' +
  '--no-preview --height --min-height --no-height --no-margin --no-padding --no-border --border ' +
  '--no-border-label --border-label --border-label-pos --no-preview-label --no-unicode --unicode --margin ' +
  '--padding --tabstop --no-listen --clear --no-clear --preview --preview-window --preview-label ' +
  '--preview-label-pos --bind ' +
  NEWER.split(' ')
    .map((name) => `--${name.replace(/[=?]$/, '')}`)
    .join(' ');

/**
 * The environment fzf reads: options before the command line's (`FZF_DEFAULT_OPTS`, or a file `FZF_DEFAULT_OPTS_FILE`
 * names), and the command it runs for its input when stdin is a terminal (`FZF_DEFAULT_COMMAND`). automode cannot
 * check what they hold, so with one of them set in its environment fzf is not read-only.
 */
export const FZF_ENVIRONMENT = ['FZF_DEFAULT_OPTS', 'FZF_DEFAULT_OPTS_FILE', 'FZF_DEFAULT_COMMAND'] as const;

/**
 * fzf 0.38's actions (`man fzf`, AVAILABLE ACTIONS) that run nothing: they move, select, edit the query, show or
 * hide the preview, print the query or the selection. Some take a text argument (`put(x)`, `pos(3)`,
 * `change-prompt(> )`, `unbind(ctrl-a)`).
 */
const ACTIONS =
  'abort accept accept-non-empty backward-char backward-delete-char backward-delete-char/eof backward-kill-word ' +
  'backward-word beginning-of-line cancel change-border-label change-preview-label change-preview-window ' +
  'change-prompt change-query clear-screen clear-selection close clear-query delete-char delete-char/eof ' +
  'deselect deselect-all disable-search down enable-search end-of-line first forward-char forward-word ignore ' +
  'jump jump-accept kill-line kill-word last next-history next-selected page-down page-up half-page-down ' +
  'half-page-up hide-preview pos prev-history prev-selected preview-down preview-up preview-page-down ' +
  'preview-page-up preview-half-page-down preview-half-page-up preview-bottom preview-top print-query put ' +
  'refresh-preview rebind replace-query select select-all show-preview toggle toggle-all toggle+down toggle-in ' +
  'toggle-out toggle-preview toggle-preview-wrap toggle-search toggle-sort toggle+up unbind unix-line-discard ' +
  'unix-word-rubout up yank ' +
  // A later fzf's (its src/options.go): they set the text shown or the fields searched, show or hide a part.
  'change-header change-footer change-ghost change-header-label change-footer-label change-input-label ' +
  'change-list-label change-pointer change-nth change-with-nth change-multi hide-header show-header ' +
  'toggle-header hide-input show-input toggle-input toggle-wrap bell exclude exclude-multi';
const PLAIN_ACTIONS = new Set(ACTIONS.split(' '));

/** The actions that run their argument with `$SHELL -c`, fzf's placeholders (`{}`, `{q}`) filled in. */
const COMMAND_ACTIONS = new Set([
  'execute',
  'execute-silent',
  'execute-multi',
  'become',
  'reload',
  'reload-sync',
  'preview',
  'change-preview',
  'transform-border-label',
  'transform-preview-label',
  'transform-prompt',
  'transform-query',
  // A later fzf's, whose command's output is only shown or searched with. Never `transform`: its output is read
  // as more actions, `execute` among them.
  'transform-header',
  'transform-footer',
  'transform-ghost',
  'transform-header-label',
  'transform-footer-label',
  'transform-input-label',
  'transform-list-label',
  'transform-pointer',
  'transform-nth',
  'transform-with-nth',
  'transform-search',
]);

/** One action of a binding: its name and, when it has one, its argument. */
interface Action {
  name: string;
  arg?: string;
}

/**
 * The actions of a `--bind` value, read more strictly than fzf reads them: `KEY:ACTION+ACTION,...` where an
 * argument is written `name(...)` holding no bracket or comma, or `name:...` as the value's last action (fzf
 * then takes the rest of the value, commas too). Anything else is undefined: fzf may read it otherwise.
 */
export function bindingActions(value: string): Action[] | undefined {
  const actions: Action[] = [];
  let rest = value;
  while (rest !== '') {
    const key = /^([a-zA-Z0-9/-]+|[^a-zA-Z0-9\s]):/.exec(rest);
    if (!key) return undefined;
    rest = rest.slice(key[0].length);
    for (;;) {
      const action = /^([a-z][a-z0-9/+-]*?)(?:\(([^()[\],]*)\)|:([\s\S]*))?(?=$|[+,])/.exec(rest);
      if (!action) return undefined;
      const [whole, name, parens, colon] = action as unknown as [string, string, string?, string?];
      actions.push({
        name,
        ...(parens !== undefined ? { arg: parens } : colon !== undefined ? { arg: colon } : {}),
      });
      rest = rest.slice(whole.length);
      if (colon !== undefined) return rest === '' ? actions : undefined;
      if (rest.startsWith('+')) rest = rest.slice(1);
      else break;
    }
    if (rest.startsWith(',')) rest = rest.slice(1);
    else if (rest !== '') return undefined;
  }
  return actions.length > 0 ? actions : undefined;
}

/**
 * fzf 0.38's placeholders (its own pattern, `src/terminal.go`): `{}`, `{q}`, `{n}`, `{1}`, `{-1}`, `{2..}`,
 * `{+}`, `{+f}`, `{s1}`... fzf writes each as single-quoted words, several for `{+}` forms.
 */
const PLACEHOLDER = /\\?(?:\{[+sf]*[0-9,.-]*\}|\{q\}|\{\+?f?nf?\})/g;

/** The shell variable standing for a placeholder's value in the script automode analyses. */
const ITEM = 'fzf_item';

/**
 * A command fzf runs, as the shell will see it once fzf fills in its placeholders: each placeholder becomes a
 * parameter only known at run time (`"$item"`, or unquoted `$item` for the `{+}` forms, which give several
 * words). fzf quotes the item for a placeholder standing alone; inside quotes, after a backslash, in a here-doc or
 * beside ANSI-C quoting its quotes would be read otherwise, so such a command is not analysed.
 */
export function fzfScript(command: string): { script: string } | { problem: string } {
  if (command.includes(ITEM) || command.includes('<<') || command.includes("$'"))
    return { problem: 'a placeholder the analysis cannot place' };
  const quoted = quotedAt(command);
  let problem: string | undefined;
  const script = command.replace(PLACEHOLDER, (match, at: number) => {
    if (match.startsWith('\\') || quoted[at]) problem ??= `${match} inside quotes or after a backslash`;
    if (match.includes('f')) problem ??= `${match} has fzf write the items to a temporary file`;
    return match.includes('+') ? `$${ITEM}` : `"$${ITEM}"`;
  });
  // A later fzf fills in more (`{r}` unquoted, `{fzf:query}`): a brace group left over may be one of them.
  const left = /\{[^\s{}]*\}/.exec(script);
  if (left) problem ??= `${left[0]} may be a placeholder a later fzf fills in`;
  return problem ? { problem } : { script };
}

/** For each character of a shell string, whether quotes or a backslash cover it. */
function quotedAt(text: string): boolean[] {
  const out: boolean[] = [];
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      out[i] = c !== "'";
      if (c === "'") quote = undefined;
    } else if (c === '\\') {
      out[i] = true;
      out[i + 1] = true;
      i++;
    } else if (quote === '"') {
      out[i] = c !== '"';
      if (c === '"') quote = undefined;
    } else {
      out[i] = false;
      if (c === "'" || c === '"') quote = c;
    }
  }
  return out;
}

/** fzf runs its commands with `$SHELL -c`: automode reads them as bash, so only for a shell reading bash. */
function runningShell(): string | undefined {
  const shell = process.env.SHELL;
  if (!shell) return undefined;
  const name = shell.slice(shell.lastIndexOf('/') + 1);
  return /^(bash|sh|dash)$/.test(name) ? undefined : name;
}

/** Why the finder is not read-only: environment options, an unknown action, or undefined when it is. */
function finderProblem(parsed: Parsed): string | undefined {
  const set = FZF_ENVIRONMENT.find((name) => process.env[name]);
  if (set) return `fzf reads $${set}, which automode cannot check`;
  for (const option of optionsNamed(parsed, '--bind')) {
    const value = option.value;
    if (!value?.static) return 'fzf --bind has a binding only known at run time';
    const actions = bindingActions(value.value);
    if (!actions) return `fzf --bind ${value.value}: a binding automode does not read`;
    const unknown = actions.find((a) => !PLAIN_ACTIONS.has(a.name) && !COMMAND_ACTIONS.has(a.name));
    if (unknown) return `fzf --bind: the action ${unknown.name} is not known to run nothing`;
  }
  return undefined;
}

/** The commands the finder runs: `--preview`'s and those of the `--bind` actions that run one. */
function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, FZF, { permute: true });
  if (!parsed.ok) return [];
  const commands: { via: string; word: Word; text: string }[] = [];
  for (const option of optionsNamed(parsed, '--preview')) {
    if (option.value) commands.push({ via: 'fzf --preview', word: option.value, text: option.value.value });
  }
  for (const option of optionsNamed(parsed, '--bind')) {
    const value = option.value;
    if (!value?.static) continue;
    for (const action of bindingActions(value.value) ?? []) {
      if (COMMAND_ACTIONS.has(action.name) && action.arg !== undefined)
        commands.push({ via: `fzf ${action.name}`, word: value, text: action.arg });
    }
  }
  return commands.map(({ via, word, text }) => {
    if (!word.static) return unresolved(`${via} runs a command only known at run time`, word);
    const other = runningShell();
    if (other)
      return unresolved(`${via} runs its command with $SHELL (${other}), which automode does not read`, word);
    const script = fzfScript(text);
    if ('problem' in script) return unresolved(`${via}: ${script.problem}`, word);
    return shellSpec({ ...word, value: script.script }, via);
  });
}

const spec: ProgramSpec = {
  name: 'fzf',
  grammar: FZF,
  readOnly: readOnly(READ_ONLY, 'none', {
    check: finderProblem,
    why: {
      '--history': 'writes its history file',
      '--history-size': 'sets up the history file it writes',
      '--listen': 'listens for actions over HTTP',
    },
  }),
};

/** fzf reads its stdin and prints to stdout: no file of its own. */
export const FZF_MODULE: ProgramModule = {
  names: ['fzf'],
  spec,
  effects: () => NONE,
  nested,
  oracle: {
    cases: [
      'fzf --filter main < notes.txt',
      'fzf -f SECRET < .env',
      'git ls-files | fzf -f main',
      "printf 'a\\nb\\n' | fzf -f a --no-sort --tac",
      'fzf -f x -e -i --print0 --read0 < notes.txt',
      "fzf -f x --preview 'cat .env' < notes.txt",
      "fzf -f x --bind 'start:execute(automode-marker-interp)' < notes.txt",
      'fzf -f x --history=out.txt < notes.txt',
      'fzf --version',
      // Without a terminal the finder cannot draw; `--select-1 --exit-0` print a lone match, or nothing, first.
      'fzf --select-1 --exit-0 -q main < notes.txt',
      'fzf -1 -0 -q zzz --height=40% --layout=reverse --border --cycle -m < notes.txt',
      "fzf -1 -0 -q main --preview 'echo {} {q}' --preview-window=right:50% < notes.txt",
      "fzf -1 -0 -q main --bind 'ctrl-a:select-all,tab:toggle+down,enter:execute(echo {})' < notes.txt",
      "fzf -1 -0 -q main --bind 'start:execute(automode-marker-interp)' < notes.txt",
      "fzf -1 -0 -q main --preview 'cat {}' < notes.txt",
      'fzf --ansi --no-sort --tac --header=h --prompt=p < notes.txt',
      // fzf 0.38 refuses the options a later fzf added: the oracle sees them change nothing.
      'fzf -1 -0 -q main --smart-case --tail=10 --style=full --wrap --gap=1 --footer=f < notes.txt',
      'fzf --bash',
    ],
  },
};
