import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { bashReading } from '../../src/bash/reading.js';
import type { Analysis } from '../../src/bash/types.js';
import { HARMLESS_ENV, harmlessVariable } from '../../src/bash/variables.js';

beforeAll(async () => {
  await loadBash();
});

function argvs(a: Analysis): string[][] {
  return a.commands.map((c) => c.argv.map((w) => w.value));
}

function expectCommands(src: string, want: string[][]): void {
  const a = analyze(src);
  expect(a.problems, JSON.stringify(src)).toEqual([]);
  expect(argvs(a), JSON.stringify(src)).toEqual(want);
}

function expectOpaque(src: string, message?: RegExp): void {
  const a = analyze(src);
  expect(a.opaque, `opaque: ${JSON.stringify(src)}`).toBe(true);
  if (message) expect(a.problems.map((p) => p.message).join('\n'), JSON.stringify(src)).toMatch(message);
}

describe('line continuations are removed where bash removes them', () => {
  it.each<[string, string[][]]>([
    [
      'echo x\n\\\nrm -rf ~',
      [
        ['echo', 'x'],
        ['rm', '-rf', '~'],
      ],
    ],
    [
      'echo x\n\\\n\\\nrm y',
      [
        ['echo', 'x'],
        ['rm', 'y'],
      ],
    ],
    ['ec\\\nho hi', [['echo', 'hi']]],
    ['echo a\\\nb c', [['echo', 'ab', 'c']]],
    ['echo a \\\n b', [['echo', 'a', 'b']]],
    [
      'echo a &&\\\nrm x',
      [
        ['echo', 'a'],
        ['rm', 'x'],
      ],
    ],
    [
      'echo a &\\\n& rm x',
      [
        ['echo', 'a'],
        ['rm', 'x'],
      ],
    ],
    ['echo "a\\\nb" c', [['echo', 'ab', 'c']]],
    [
      'echo $(ls \\\n-la)',
      [
        ['echo', '⟨$⟩'],
        ['ls', '-la'],
      ],
    ],
    [
      'echo "$(r\\\nm x)"',
      [
        ['echo', '⟨$⟩'],
        ['rm', 'x'],
      ],
    ],
    [
      'echo `r\\\nm x`',
      [
        ['echo', '⟨$⟩'],
        ['rm', 'x'],
      ],
    ],
    ['echo a\\\n#b', [['echo', 'a#b']]],
    [
      'echo a #c \\\necho b',
      [
        ['echo', 'a'],
        ['echo', 'b'],
      ],
    ],
    [
      'echo a\\\\\nrm b',
      [
        ['echo', 'a\\'],
        ['rm', 'b'],
      ],
    ],
    ['cat <<EOF\nx\\\ny\nEO\\\nF\nrm z', [['cat'], ['rm', 'z']]],
    ["cat <<'EOF'\nx\\\nEOF\nrm z", [['cat'], ['rm', 'z']]],
    ['cat <<E\\\nOF\nx\nEOF\nrm z', [['cat'], ['rm', 'z']]],
  ])('%j', (src, want) => expectCommands(src, want));

  it("keeps a backslash-newline inside single quotes and $'...'", () => {
    expectCommands("echo 'a\\\nb'", [['echo', 'a\\\nb']]);
    expectCommands("echo $'a\\\nb'", [['echo', 'a\\\nb']]);
  });

  it('removes nothing when there is nothing to remove', () => {
    const src = 'git status && ls -la';
    expect(bashReading(src).text).toBe(src);
  });
});

describe('cases the bash oracle found', () => {
  it.each([
    "echo $'\\\\'; echo 'x' $'y'",
    "local 'a[$(find . -delete 'single quoted')]'",
    'cat <<EOF; ls -la\nbody \\\nEOF\nrm x',
    "alias q='rm -rf x'\nq",
    'jobs -x rm x',
    // tree-sitter reads `[[ ... ]]` after a command name as a test and leaves its operands unexpanded.
    'cat [[ a == $(touch p) ]]',
    'echo x [[ a == `rm -rf ~` ]]',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash syntax
    'cat f \\\n[[ a == ${x:-$(rm -rf ~)} ]]',
    // Inside an unquoted here-document, a substitution reads `$"..."` as a translated string.
    'cat <<EOF\n$(find . $"-delete")\nEOF',
  ])('%j is opaque', (src) => expectOpaque(src));

  it.each<[string, string[][]]>([
    ['ls | time cat x', [['ls'], ['time', 'cat', 'x'], ['cat', 'x']]],
    ['time ls || time cat x', [['ls'], ['cat', 'x']]],
    ["read -r -d $'\\0' f", [['read', '-r', '-d', '', 'f']]],
    ["echo $'a\\x00b'c", [['echo', 'ac']]],
  ])('%j', (src, want) => expectCommands(src, want));
});

describe('carriage returns', () => {
  it.each([
    'echo hi \\\r\ntouch /tmp/p',
    'echo hi\r\ntouch /tmp/p',
    'echo hi\rtouch',
    'ls\r',
    'cat <<EOF\r\nx\r\nEOF\r\nrm y',
    'echo a # c\r\nrm y',
  ])('outside quotes or in a here-document make the analysis opaque: %j', (src) => {
    expectOpaque(src, /carriage return/);
  });

  it('inside quotes are data', () => {
    expectCommands('echo "a\rb" \'c\rd\'', [['echo', 'a\rb', 'c\rd']]);
  });
});

describe('$"..." is a double-quoted string', () => {
  it.each<[string, string[][]]>([
    ['find src $"-delete"', [['find', 'src', '-delete']]],
    ['find src x$"-del"ete', [['find', 'src', 'x-delete']]],
    ['echo $"a"b $"c"', [['echo', 'ab', 'c']]],
    [
      'echo "$(rm $"-rf" x)"',
      [
        ['echo', '⟨$⟩'],
        ['rm', '-rf', 'x'],
      ],
    ],
    ['$"rm" x', [['rm', 'x']]],
    ['echo $$"x" "a$"', [['echo', '⟨$⟩x', 'a$']]],
    ['cat > $"f"', [['cat']]],
  ])('%j', (src, want) => expectCommands(src, want));

  it('expands inside: $"$(cmd)" runs cmd', () => {
    const a = analyze('echo $"a$(rm x)c"');
    expect(argvs(a)).toContainEqual(['rm', 'x']);
  });
});

describe('builtins that evaluate variable names and arithmetic', () => {
  it.each([
    "test -v 'a[$(touch /tmp/p)]'",
    "[ -v 'a[$(touch /tmp/p)]' ]",
    "[[ -v 'a[$(touch /tmp/p)]' ]]",
    "[[ -v a['$(touch /tmp/p)'] ]]",
    "[[ x -eq 'a[$(touch /tmp/p)]' ]]",
    "[[ 'a[`id`]' -lt 3 ]]",
    "printf -v 'a[$(touch /tmp/p)]' x",
    "printf -v'a[$(id)]' x",
    "read 'a[$(touch /tmp/p)]' < f",
    "read -r -a 'a[$(id)]' < f",
    "read -ra 'a[$(id)]' < f",
    "mapfile 'a[$(id)]' < f",
    "readarray -t 'a[$(id)]' < f",
    "declare 'a[$(id)]=x'",
    "typeset -a 'a[`id`]=x'",
    "local 'a[$(id)]'",
    "export 'a[$(id)]=1'",
    "readonly 'a[$(id)]=1'",
    "declare -i 'x=a[$(id)]'",
    "declare 'x=([$(id)]=1)'",
    "unset 'a[$(id)]'",
    "unset -v 'a[$(id)]'",
    "let 'a[$(id)]=1'",
    "let 'x=a[`id`]'",
    "wait -p 'a[$(id)]'",
    "getopts ab 'a[$(id)]'",
    'test -v "$name"',
    'printf -v "$name" x',
    "compgen -W '$(id)'",
    'compgen -C ls',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    'echo ${!name}',
    "sudo test -v 'a[$(id)]'",
    'bash -c "test -v \'a[\\$(id)]\'"',
    "builtin printf -v 'a[$(id)]' x",
    'echo $(( $(cat f) + 1 ))',
    '(( $(cat f) ))',
    'x=$(cat f); echo $((x))',
    'echo $((x))',
    '[[ $x -eq 3 ]]',
    'read n < f; echo $((n + 1))',
    'for i in $(cat f); do echo $((i)); done',
    'let i++',
    'let x=y',
    'declare -i x=y',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    'a=(1 2); echo ${a[i]}',
    'a[i]=1',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    "x='a[$(id)]'; echo ${y:x}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    'set -- a; echo ${@:n}',
    '[[ $(cat f) -gt 1 ]]',
  ])('%j is opaque', (src) => expectOpaque(src));

  it.each([
    'test -v a',
    "test -v 'a[1]'",
    '[[ -v a[@] ]]',
    'x=2; [[ $x -eq 3 ]]',
    'printf -v out %s x',
    'read -r line < f',
    'mapfile -t lines < f',
    'declare -a arr',
    'let i=0 i++',
    "compgen -W 'a b c' -- a",
    'unset x',
    'echo $((1 + 2))',
    'i=0; (( i++ )); echo $((i * 2))',
    'for ((i = 0; i < 3; i++)); do echo $i; done',
    'for i in 1 2 3; do echo $((i * 2)); done',
    'n=5; [[ $n -gt 0 ]]',
    '[[ $# -gt 0 ]]',
    'echo $((RANDOM % 5))',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    'a=(1 2); echo ${a[1]} ${#a[@]}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    'echo ${x:1:2} ${#x}',
    'let x=2*3',
  ])('%j is clear', (src) => expect(analyze(src).problems).toEqual([]));
});

describe('shell state changed on the same line', () => {
  it.each<[string, RegExp]>([
    ['printf -v PATH %s scripts; ls', /printf changes PATH/],
    ['printf -v HOME %s scripts; git status', /printf changes HOME/],
    ['HOME=/tmp/x; cat ~/.ssh/id_rsa', /assignment changes HOME/],
    ['CDPATH=$HOME; cd .ssh; cat id_rsa', /CDPATH/],
    ['export GIT_DIR=x; git status', /export changes GIT_DIR/],
    ['declare -x NODE_OPTIONS=--require=x; node a.js', /NODE_OPTIONS/],
    ['typeset PAGER=cat; git log', /PAGER/],
    ['f() { local LD_PRELOAD=x; ls; }; f', /LD_PRELOAD/],
    ['readonly IFS=/; ls $x', /IFS/],
    ['read PATH < f; ls', /read changes PATH/],
    ['read -a BASH_ENV < f; bash x', /BASH_ENV/],
    ['mapfile GLOBIGNORE < f; ls *', /GLOBIGNORE/],
    ['getopts a HOME; ls ~', /getopts changes HOME/],
    ['wait -p PATH; ls', /wait changes PATH/],
    ['for PATH in x; do ls; done', /for changes PATH/],
    ['ls; PATH=x', /PATH/],
    ['while true; do ls; PATH=x; done', /PATH/],
    ['(( PATH=1 )); ls', /arithmetic assigns PATH/],
    ['let HOME=0; ls ~', /HOME/],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    ['echo ${PATH:=x}; ls', /PATH/],
    ['declare -n r=PATH; r=x; ls', /reference/],
    ['export -f ls; bash x.sh', /function ls/],
    ['unset -f git; git status', /function git/],
    ['unset PATH; ls', /unset changes PATH/],
    ['enable -n kill; kill 1', /enable/],
    ['enable -f ./x.so ls; ls', /enable/],
    ['hash -p ./x ls; ls', /hash/],
    ['shopt -s expand_aliases; ls', /expand_aliases/],
    ['set -k; ls LD_PRELOAD=x', /set -k/],
    ['set -o allexport; x=1; env', /allexport/],
    ['eval PATH=x; ls', /PATH/],
    ['eval "export GIT_CONFIG_GLOBAL=x"; git status', /GIT_CONFIG_GLOBAL/],
    ['printf -v "$v" %s x; ls', /variable name, only known at run time/],
    ['http_proxy=x; curl a', /http_proxy/],
  ])('%j is opaque', (src, message) => expectOpaque(src, message));

  it.each([
    'x=1; echo $x',
    'for f in *.ts; do wc -l "$f"; done',
    'LANG=C sort f',
    'set -euo pipefail; ls',
    'shopt -s nullglob; ls *.ts',
    'export PATH=/x',
    'printf -v PATH %s x',
    'while IFS= read -r line; do echo "$line"; done < f',
    'out=$(git status); echo "$out"',
    'LINE=$(ls | head -1)',
    'bash -c "PATH=x"',
    'export CI=1; npm test',
    'i=0; (( i++ )); echo $i',
    'read -r a b <<< "x y"; echo $a',
  ])('%j is clear', (src) => expect(analyze(src).problems).toEqual([]));

  it('an upper-case name is harmless only when listed, a lower-case script name is harmless', () => {
    const shellResults = ['REPLY', 'MAPFILE', 'OPTARG', 'OPTIND', 'COPROC'];
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), (name) => {
        expect(harmlessVariable(name)).toBe(HARMLESS_ENV.has(name) || shellResults.includes(name));
      }),
    );
    expect(harmlessVariable('line')).toBe(true);
    expect(harmlessVariable('no_proxy')).toBe(false);
    expect(harmlessVariable('https_proxy')).toBe(false);
  });

  it('any variable a builtin assigns before another command makes the line opaque unless harmless', () => {
    const builtins = ['printf -v NAME %s x', 'read NAME < f', 'NAME=x', 'export NAME=x', 'declare NAME=x'];
    fc.assert(
      fc.property(fc.constantFrom(...builtins), fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,6}$/), (b, name) => {
        const a = analyze(`${b.replace('NAME', name)}; ls`);
        expect(a.opaque, `${b} ${name}`).toBe(!harmlessVariable(name));
      }),
    );
  });
});

/**
 * Real bash is the oracle: random lines built from continuations, quotes, CR, `$"..."`, comments, here-documents
 * and substitutions, whose only command is a function `p` that prints its arguments. Each analysed `p` must be
 * what bash ran, with the same arguments. Nothing but the function runs: PATH points nowhere.
 */
describe('bash agrees on continuations, CR and $"..."', () => {
  const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p));
  const dir = mkdtempSync(join(tmpdir(), 'automode-reading-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pieces = [
    ...['p', ' ', ' ', 'a', 'b', '-', '\\', ';', '&&', ' #', ' $(p ', ')', '\\\\', '\n p '],
    ...['\\\n', '\\\n', '\n', '\r', '\r\n', '\\\r\n', '"q\\\nr"', "'s\\\nt'", '$"-d"', "$'u\\\nv'"],
    ...['"$(p "w\\\nx")"', ' <<E\n', '\nE\n', " <<'E'\n", 'E', '`p `'],
  ];
  const prelude = 'p() { for x in "$@"; do printf "%s\\037" "$x"; done; printf "\\036"; }; E() { :; }\n';
  it.skipIf(!bash)('on generated lines', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 10 }), (parts) => {
        const src = `p${parts.join('')}`;
        const a = analyze(src);
        if (a.opaque) return;
        const cmds = a.commands.filter((c) => c.argv[0]?.value === 'p' && c.argv.every((w) => w.static));
        if (cmds.length !== a.commands.length) return;
        const r = spawnSync(bash!, ['-c', prelude + src], {
          encoding: 'utf8',
          cwd: dir,
          timeout: 5000,
          env: { PATH: '/nonexistent' },
        });
        if (r.error || r.stderr.includes('syntax error')) return;
        checked++;
        const ran = r.stdout
          .split('\x1e')
          .slice(0, -1)
          .map((x) => JSON.stringify(x.split('\x1f').slice(0, -1)))
          .sort();
        const found = cmds.map((c) => JSON.stringify(c.argv.slice(1).map((w) => w.value))).sort();
        expect(found, JSON.stringify(src)).toEqual(ran);
      }),
      { seed: 12, numRuns: 600 },
    );
    expect(checked).toBeGreaterThan(30);
  });
});
