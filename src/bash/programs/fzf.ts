import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Parsed } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

/**
 * fzf 0.38's options, as its own parser reads them (`fzf --help` lists most; the parser also takes `--phony`,
 * `--no-phony`, `--enabled`, `--black`, `--no-256`, `--no-bold`...). It takes no operands, no abbreviations and no
 * clusters; `-q`, `-f`, `-d` and `-n` take a value attached or in the next word, `-m` and `-s` only an attached one.
 * An option a later fzf added is unknown here, so a line holding one is never read-only.
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
    'margin= padding= tabstop= listen= no-listen clear no-clear',
  abbreviate: false,
});

/**
 * What filter mode (`--filter`) reads: the matching, sorting and output options, and those of the finder's
 * screen, which filter mode never draws. Not `--bind`, `--preview` (they run commands in the finder), `--history`
 * (creates its file even in filter mode) or `--listen` (a server that takes actions).
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
  '--padding --tabstop --no-listen --clear --no-clear';

/**
 * The environment fzf reads: options before the command line's (`FZF_DEFAULT_OPTS`, or a file `FZF_DEFAULT_OPTS_FILE`
 * names), and the command it runs for its input when stdin is a terminal (`FZF_DEFAULT_COMMAND`). automode cannot
 * check what they hold, so with one of them set in its environment fzf is not read-only.
 */
export const FZF_ENVIRONMENT = ['FZF_DEFAULT_OPTS', 'FZF_DEFAULT_OPTS_FILE', 'FZF_DEFAULT_COMMAND'] as const;

/**
 * Filter mode prints the lines of stdin that match and exits, drawing no finder; without it fzf is the finder,
 * whose keys and options run commands. Claude Code runs a command with stdin a pipe, never a terminal: fzf then
 * reads its input from it, not from `$FZF_DEFAULT_COMMAND` or a walk of the working folder.
 */
function filterOnly(parsed: Parsed): string | undefined {
  const set = FZF_ENVIRONMENT.find((name) => process.env[name]);
  if (set) return `fzf reads $${set}, which automode cannot check`;
  if (has(parsed, 'f', 'h', '--version')) return undefined;
  return 'fzf without --filter is the interactive finder, whose keys and options run commands';
}

const spec: ProgramSpec = {
  name: 'fzf',
  grammar: FZF,
  readOnly: readOnly(READ_ONLY, 'none', {
    check: filterOnly,
    why: {
      '--bind': 'binds keys to commands it runs',
      '--preview': 'runs a command for the line under the cursor',
      '--preview-window': 'sets up the preview, which runs a command',
      '--preview-label': 'sets up the preview, which runs a command',
      '--preview-label-pos': 'sets up the preview, which runs a command',
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
    ],
  },
};
