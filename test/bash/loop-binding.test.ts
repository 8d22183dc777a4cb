import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { BASH_BUILTINS } from '../../src/bash/loop-binding.js';

beforeAll(async () => {
  await loadBash();
});

function argvOf(src: string, program: string) {
  const a = analyze(src);
  expect(a.opaque, src).toBe(false);
  return a.commands.filter((c) => c.argv[0]?.value === program).map((c) => c.argv.slice(1));
}

describe('a for loop binds "$f" in its body to one of its words', () => {
  it('a glob word: the body reads a file the glob matches', () => {
    const [args] = argvOf('for f in src/*.ts; do wc -l "$f"; done', 'wc');
    expect(args?.[1]).toMatchObject({ value: 'src/*.ts', static: false, dynamic: ['glob'], text: '"$f"' });
  });

  it('static words: the body once per word', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
    const runs = argvOf('for f in a.txt "b c.txt"; do cat "${f}"; done', 'cat');
    expect(runs.map((args) => args.map((w) => [w.value, w.static]))).toEqual([
      [['a.txt', true]],
      [['b c.txt', true]],
    ]);
  });

  it.each([
    ['assigned', 'for f in a; do f=/etc/shadow; cat "$f"; done'],
    ['read', 'for f in a; do read f; cat "$f"; done'],
    ['mapfile', 'for f in a; do mapfile f < x; cat "$f"; done'],
    ['printf -v', 'for f in a; do printf -v f x; cat "$f"; done'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
    ['${f:=…}', 'for f in a; do echo "${f:=x}"; cat "$f"; done'],
    ['arithmetic', 'for f in a; do (( f++ )); cat "$f"; done'],
    ['let', 'for f in a; do let f=1; cat "$f"; done'],
    ['unset', 'for f in a; do unset f; cat "$f"; done'],
    ['local', 'f(){ for f in a; do local f=x; cat "$f"; done; }; f'],
    ['export', 'for f in a; do export f=x; cat "$f"; done'],
    ['a function', 'g(){ f=x; }; for f in a; do g; cat "$f"; done'],
    ['cd', 'for f in a; do cd /etc; cat "$f"; done'],
    ['eval', 'for f in a; do eval "f=x"; cat "$f"; done'],
    ['a nested loop over the same name', 'for f in a; do for f in b; do :; done; cat "$f"; done'],
    ['unquoted', 'for f in a; do cat $f; done'],
    ['part of a word', 'for f in a; do cat "$f.bak"; done'],
    ['a word from a command', 'for f in $(ls); do cat "$f"; done'],
  ])('not when %s', (_why, src) => {
    const a = analyze(src);
    const args = a.commands.filter((c) => c.argv[0]?.value === 'cat').flatMap((c) => c.argv.slice(1));
    // An analysis that gives up (arithmetic on a word) is never allowed either.
    const unknown = args.some((w) => w.dynamic.includes('parameter') || w.dynamic.includes('command'));
    expect(a.opaque || (args.length > 0 && unknown), src).toBe(true);
  });

  it('not past eight walks of a body, nested loops multiplied', () => {
    const args = argvOf('for f in 1 2 3; do for g in 4 5 6; do cat "$g"; done; done', 'cat').flat();
    expect(args.every((w) => w.dynamic.includes('parameter'))).toBe(true);
  });
});

describe('against bash', () => {
  const dir = mkdtempSync(join(tmpdir(), 'automode-loop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every word the body gets is one the analysis says it may be', () => {
    mkdirSync(join(dir, 'src'));
    for (const name of ['a.ts', 'b c.ts', '-x.ts', '*.ts']) writeFileSync(join(dir, 'src', name), '');
    const src = 'for f in src/*.ts lib/*.js; do printf "%s\\0" "$f"; done';
    const words = argvOf(src, 'printf').map((args) => args[1]!);
    const ran = spawnSync('bash', ['-c', src], { cwd: dir, encoding: 'utf8' })
      .stdout.split('\0')
      .slice(0, -1);
    expect(ran.length).toBe(5);
    for (const value of ran) {
      expect(
        words.some((w) => w.value === value || picomatch(w.value, { dot: false })(value)),
        value,
      ).toBe(true);
    }
  });

  it('BASH_BUILTINS holds every builtin and keyword of the bash here', () => {
    const listed = spawnSync('bash', ['-c', 'compgen -b; compgen -k'], { encoding: 'utf8' }).stdout.split(
      '\n',
    );
    const missing = listed.filter((name) => name && !BASH_BUILTINS.has(name));
    expect(missing).toEqual([]);
  });
});
