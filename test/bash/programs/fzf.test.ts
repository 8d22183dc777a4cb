import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { FZF_ENVIRONMENT } from '../../../src/bash/programs/fzf.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

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
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ['fzf', /interactive finder/],
    ['fzf -q x', /interactive finder/],
    ["fzf --preview 'cat {}'", /runs a command/],
    ["fzf -f x --preview 'cat {}'", /runs a command/],
    ["fzf -f x --bind 'start:execute(id)'", /binds keys/],
    ['fzf -f x --history=h.txt', /writes its history/],
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

  test('fzf reads stdin and touches no file of its own', () => {
    expect(shown('fzf -f x')).toEqual({ known: true, effects: [], code: [] });
  });
});
