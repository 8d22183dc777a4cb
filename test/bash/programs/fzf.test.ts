import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { FZF_ENVIRONMENT } from '../../../src/bash/programs/fzf.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

// fzf runs its preview and bindings with $SHELL: the finder's commands below are read as bash.
const shellBefore = process.env.SHELL;
beforeAll(() => {
  process.env.SHELL = '/bin/bash';
});
afterAll(() => {
  if (shellBefore === undefined) delete process.env.SHELL;
  else process.env.SHELL = shellBefore;
});

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands.find((c) => c.name?.program === 'fzf')!;
  const { readOnly, reason } = checkProgram(programSpec('fzf')!, cmd.argv, true);
  return { readOnly, reason };
}

const saved = Object.fromEntries(FZF_ENVIRONMENT.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('fzf', () => {
  test.each([
    'fzf --filter x < list',
    'fzf -f x',
    'fzf -fx',
    'fzf --filter=src -n 1 -d / --with-nth 2',
    'git ls-files | fzf -f main --no-sort --tac -e -i',
    'fzf -f a --height 40% --layout=reverse --border --color=dark',
    'fzf -f a -m --expect=ctrl-x --header-lines 1 --print0 --read0 +s +i',
    'fzf --version',
    // The finder reads stdin and prints the lines picked; its screen options draw, they run nothing.
    'fzf',
    'fzf -q x',
    'fzf --height=50% --layout=reverse --border=rounded --margin=1 --padding=1 --cycle -m --tac',
    'fzf --select-1 --exit-0 --print-query --expect=enter,ctrl-c --header=h --header-lines=2',
    "fzf --bind 'ctrl-a:select-all,ctrl-d:deselect-all' --bind=tab:toggle+down --bind=ctrl-/:toggle-preview",
    "fzf --bind 'ctrl-p:put(text)' --bind 'enter:accept,esc:abort' --bind 'ctrl-x:change-prompt(> )'",
    // The commands a preview or a binding runs are decided on their own (below).
    "fzf --preview 'cat {}' --preview-window=right:50% --preview-label=p",
    "fzf --bind 'start:execute(id)'",
    "fzf --bind 'change:reload:rg --files'",
    // Options a later fzf added that only change the screen, the matching or the output.
    'fzf --smart-case --ignore-case --no-ignore-case --accept-nth=2 --tail=1000 --style=minimal',
    'fzf --highlight-line --wrap --wrap=word --gap=2 --no-multi-line --raw --track --footer=f --footer-border',
    'fzf --header-border=rounded --preview-border --list-border --input-border=sharp --ghost=type',
    'fzf --bash',
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ["fzf --bind 'ctrl-x:frobnicate'", /action frobnicate is not known/],
    // transform's command prints more actions for fzf to take: what they run is only known at run time.
    ["fzf --bind 'focus:transform(echo execute-silent:id)'", /action transform is not known/],
    ["fzf --bind 'ctrl-x:EXECUTE(id)'", /a binding automode does not read/],
    ["fzf --bind 'ctrl-x:execute[id]'", /a binding automode does not read/],
    ["fzf --bind 'ctrl-x:execute(a(b))'", /a binding automode does not read/],
    ["fzf --bind 'ctrl-x:abort+'", /a binding automode does not read/],
    ['fzf --bind "$B"', /run time/],
    ['fzf -f x --history=h.txt', /writes its history/],
    // Those that run a program or walk folders stay unknown.
    ['fzf --tmux', /unknown option --tmux/],
    ['fzf --popup=center', /unknown option --popup/],
    ['fzf --with-shell=zsh', /unknown option --with-shell/],
    ["fzf --info-command='id'", /unknown option --info-command/],
    ['fzf --walker-root=/home', /unknown option --walker-root/],
    ['fzf --man', /unknown option --man/],
    // fzf takes `word` as the value; read as an operand, it is never read-only.
    ['fzf --wrap word', /operand|argument/],
    ['fzf -f x --listen=6266', /HTTP/],
    // fzf takes `dark` as the colour's value; read as an operand, it is never read-only.
    ['fzf -f x --color dark', /arguments/],
    // fzf reads options after `--`: the spec reads operands, which fzf has none of.
    ['fzf -f x -- --bind=x', /arguments/],
    ['fzf -f x --walker-root=/', /unknown option/],
    ['fzf --filt x', /unknown option/],
  ])('%s is not read-only (%s)', (line, why) => {
    const v = verdict(line);
    expect(v.readOnly).toBe(false);
    expect(v.reason).toMatch(why);
  });

  test.each(FZF_ENVIRONMENT)('with %s set, fzf -f is not read-only', (name) => {
    process.env[name] = '--bind=start:execute(id)';
    expect(verdict('fzf -f x').reason).toContain(`$${name}`);
  });

  test.each([
    ["FZF_DEFAULT_COMMAND='rm -rf ~' fzf -f x", ['shell FZF_DEFAULT_COMMAND']],
    ["FZF_DEFAULT_OPTS='--preview id' fzf -f x", ['environment FZF_DEFAULT_OPTS']],
    ['FZF_DEFAULT_OPTS_FILE=o fzf -f x', ['environment FZF_DEFAULT_OPTS_FILE']],
  ])('%s runs %j', (line, code) => {
    const cmd = analyze(line).commands.find((c) => c.name?.program === 'fzf')!;
    const nested = analyze(line)
      .commands.filter((c) => c.nested)
      .map((c) => `shell ${c.nested!.via}`);
    expect([...cmd.executes.map((e) => `${e.kind} ${e.via}`), ...nested]).toEqual(code);
  });

  /** What the finder's commands run, as the analysis reads them: each nested command, or the problem. */
  function finderRuns(line: string): string[] {
    const analysis = analyze(line);
    return [
      ...analysis.commands
        .filter((c) => c.nested)
        .map((c) => c.argv.map((w) => (w.static ? w.value : '$')).join(' ')),
      ...analysis.problems.map((p) => `problem: ${p.message}`),
    ];
  }

  test.each([
    ["fzf --preview 'cat {}'", ['cat $']],
    ["fzf --preview 'head -n 5 {1} {q}'", ['head -n 5 $ $']],
    ["fzf --bind 'enter:execute(rm {+})'", ['rm $']],
    ["fzf --bind 'ctrl-r:reload(find .)+first'", ['find .']],
    ["fzf --bind 'change:reload:rg --files, -g x'", ['rg --files, -g x']],
    ["fzf --bind 'enter:become(echo {})'", ['echo $']],
    ["fzf --bind 'focus:transform-header(echo {})+change-footer(x)'", ['echo $']],
  ])('%s runs %j', (line, runs) => {
    expect(finderRuns(line)).toEqual(runs);
  });

  test.each([
    // fzf quotes the item it puts in place of `{}`: inside quotes or after a backslash, its quotes end them.
    ['fzf --preview "echo \'{}\'"', /inside quotes/],
    ['fzf --preview \'echo "{}"\'', /inside quotes/],
    ["fzf --preview 'echo \\{}'", /backslash/],
    ["fzf --preview 'cat <<E\n{}\nE'", /cannot place/],
    // A later fzf puts `{r}` in unquoted.
    ["fzf --preview 'echo {r}'", /later fzf/],
    ["fzf --bind 'enter:execute(cat {+f})'", /temporary file/],
    ["fzf --preview 'echo {fzf:query}'", /later fzf/],
    ["fzf --preview 'fzf_item=x; cat {}'", /cannot place/],
    ['fzf --preview "$P"', /only known at run time/],
  ])('%s is not analysed (%s)', (line, why) => {
    expect(finderRuns(line).join('\n')).toMatch(why);
  });

  test("with $SHELL another shell than bash, the finder's commands are not analysed", () => {
    const shell = process.env.SHELL;
    try {
      process.env.SHELL = '/usr/bin/zsh';
      expect(finderRuns("fzf --preview 'echo {}'").join('\n')).toMatch(/\$SHELL \(zsh\)/);
    } finally {
      process.env.SHELL = shell;
    }
    expect(finderRuns("fzf --preview 'echo {}'")).toEqual(['echo $']);
  });

  test('fzf reads stdin and touches no file of its own', () => {
    expect(shown('fzf -f x')).toEqual({ known: true, effects: [], code: [] });
  });
});
