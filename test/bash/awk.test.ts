import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { awkConstructs, awkFindings, awkProgramSafety } from '../../src/bash/programs/awk/program.js';

describe('awk programs that only compute are read-only', () => {
  test.each([
    '{print $1}',
    'NR>7 { sum += $9; } END { print sum; }',
    '$1 == "PID" {block_num++; next} block_num == 2 {sum += $9;} END {print sum}',
    '{ printf "User: %s\\nPID: %s\\n", $2,$1 }',
    '/PID *USER/{print;getline;print}',
    '/ProgramName/ && ! /awk/ { print $2; exit; }',
    'NR==1 {print $0, "foo"; next} {print $0, ($2=="x"?"-":"x")}',
    '{s=$2; $2=$1; $1=s;}1',
    'BEGIN {print "0"}; {print $7, "+"}; END {print "p"}',
    '!seen[$0]++',
    'NR==FNR{a[$1];next} $1 in a',
    'BEGIN { FS = OFS = "\\t" } { $3 = toupper(substr($3, 1, 1)) substr($3, 2) } 1',
    '{ x = ($1) / 2; print x }',
    '{ n = split($0, parts, /,/); for (i = n; i > 0; i--) printf "%s ", parts[i]; print "" }',
    'function max(a, b) { return a > b ? a : b } { m = max(m, $1) } END { print m }',
    '{ a[$1][$2] = $3 } END { for (k in a) print k }',
    '{ print > "/dev/stderr" }',
    '{ print > "/dev/null"; print $1 >> "/dev/null" }',
    '{ print $1 | "cat" }'.replace('| "cat"', '> "/dev/stdout"'),
    '{ if ($1 > 0) print "pos"; else if ($1 < 0) print "neg"\nelse print "zero" }',
    'BEGIN { while (i < 3) { i++; if (i == 2) continue; print i } do { i-- } while (i > 0) }',
    '{ gsub(/[[:space:]]+/, " "); sub(/^ /, ""); print }',
    '{ print length }',
    '{ print length($0) > 10 }'.replace(' > 10', ''),
    '{ $1 = ""; print substr($0, 2) }',
    '{ print $NF; print $(NF-1); print $i++ }',
    'BEGIN { printf("%d\\n", 2^-1 * -3 ** 2) }',
    '{ t = $0; while (match(t, /[0-9]+/)) { print substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH) } }',
    '{ print (1, 2) in a, ($1 ~ "x") }',
    '{ print strftime("%Y", systime()), gensub(/a/, "b", "g") }',
    'BEGIN { x = 1 } # a comment with system("rm") and print > "f"\n{ print x }',
    '{ print "a > b", "c | d", "system(x)" }',
    '/"/ { print }',
    '/a\\/b/ { print }',
    'BEGIN { switch (x) { case 1: print "one"; break; case /a/: print; default: print "?" } }',
    '{ print \\\n $1 }',
    '{ delete a[$1]; delete a }',
    '$1 ~ /^#/ { next } { print }',
    'BEGIN { getline; getline line; print line }',
    '{ x /= 2; print x }',
    'BEGIN { print 0x1F, 1e3, .5 }',
    'length > 72',
  ])('%j', (program) => {
    expect(awkProgramSafety(program)).toMatchObject({ readOnly: true });
  });
});

describe('awk constructs that run commands, read or write files, or reach hidden state', () => {
  test.each([
    ['{system("rm x")}', ['system(']],
    ['BEGIN { system ("rm x") }', ['system(']],
    ['BEGIN { system\\\n("rm x") }', ['system(']],
    ['{ print | "sort" }', ['print |']],
    ['{ printf "%s", $1 | "sh" }', ['print |']],
    ['{ print |& "sh" }', ['print |&']],
    ['{ "date" | getline d }', ['| getline']],
    ['{ "date" |& getline }', ['|&']],
    ['BEGIN { while ((getline line < "f") > 0) n++ }', ['getline <']],
    ['{ print > "out" }', ['print >']],
    ['{ print $1 >> "out" }', ['print >']],
    ['{ printf("%s", $1) > $2 ".txt" }', ['print >']],
    ['BEGIN { print ENVIRON["HOME"] }', ['ENVIRON']],
    ['BEGIN { for (k in ENVIRON) print k }', ['ENVIRON']],
    ['BEGIN { print PROCINFO["pid"] }', ['PROCINFO']],
    ['BEGIN { SYMTAB["x"] = 1 }', ['SYMTAB']],
    ['BEGIN { ARGV[1] = "/etc/shadow"; ARGC = 2 }', ['ARGV assignment', 'ARGC assignment']],
    ['BEGIN { ARGV[ARGC++] = ".env" }', ['ARGC assignment', 'ARGV assignment']],
    ['BEGIN { split(".env", ARGV) }', ['ARGV passed to split']],
    ['BEGIN { sub(/x/, ".env", ARGV[1]) }', ['ARGV passed to sub']],
    ['function f(a) { a[1] = ".env" } BEGIN { f(ARGV) }', ['ARGV passed to f']],
    ['BEGIN { delete ARGV[1] }', ['ARGV assignment']],
    ['BEGIN { getline ARGV[1] }', ['ARGV assignment']],
    ['BEGIN { f = "system"; @f("rm x") }', ['@ indirect call']],
    ['@include "x.awk"\n{ print }', ['@include']],
    ['@load "filefuncs"\nBEGIN { }', ['@load']],
    ['@namespace "x"\nBEGIN { }', ['@namespace']],
    ['{ foo($1) }', ['unknown function foo']],
    ['{ print $1 }; system("x") #', ['system(']],
    ['(a) /"/; system("x")', ['awk program']],
    ['/[/]/; system("x")', ['awk program']],
    ['{ print `x` }', ['awk program']],
    ['{ print "unterminated }', ['awk program']],
    ['BEGIN { printf "%s" > "/dev/stdout"; system("x") }', ['system(']],
  ])('%j', (program, constructs) => {
    expect(awkConstructs(program)).toEqual(constructs);
    expect(awkProgramSafety(program).readOnly).toBe(false);
  });

  test('reports the files and commands it can name', () => {
    const found = awkFindings(
      'BEGIN { system("date"); "id" | getline u; getline l < "in"; print > "out"; print | "sort -r" }',
    );
    expect(found.reads).toEqual(['in']);
    expect(found.writes).toEqual(['out']);
    expect(found.runs).toEqual([
      { via: 'system(', command: 'date' },
      { via: '| getline', command: 'id' },
      { via: 'print |', command: 'sort -r' },
    ]);
  });
});

const GAWK = spawnSync('gawk', ['--version'], { encoding: 'utf8' }).status === 0;

/** Pieces that combine into programs that stress regex/division, strings, comments and continuations. */
// biome-ignore format: a table of pieces reads better packed
const PIECES = [
  '{', '}', '(', ')', ';', '\n', ' ', '/', '/x/', '/[/]/', '/a\\/b/', '"s"', '"a\\"b"', '# c\n', '\\\n', 'x',
  '$1', 'NR', 'a[1]', '++', '--', '+', '-', '*', '%', '^', '!', '>', '<', '|', '?', ':', '~', '=', '/=',
  ',', 'print', 'printf', 'getline', 'system(', '"cmd"', 'ENVIRON', 'ARGV[1]=', 'in', 'if', 'else', 'BEGIN',
  'END', 'length', 'substr(', 'next', 'exit', 'for', 'while', 'do', '1', '2.5', 'f(', 'function f(a)',
];

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * gawk -o- (--pretty-print) parses a program without running it and prints it in canonical form. A program gawk
 * accepts must parse, and its canonical form must show the same constructs: a construct the parse missed
 * (a `system(` hidden by a misread regex or string) would appear in one and not the other.
 */
describe.runIf(GAWK)('awk programs agree with the parse gawk pretty-prints (needs gawk)', () => {
  test('generated programs', () => {
    const random = seeded(7);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let k = 0; k < 2500; k++) {
      let program = '';
      const n = 2 + Math.floor(random() * 8);
      for (let j = 0; j < n; j++) program += PIECES[Math.floor(random() * PIECES.length)];
      const run = spawnSync('gawk', ['-o-', '--', program], {
        input: '',
        encoding: 'utf8',
        timeout: 5000,
      });
      if (run.status !== 0) continue;
      accepted++;
      const mine = awkConstructs(program);
      const canonical = awkConstructs(run.stdout);
      if (mine.includes('awk program')) continue;
      if (mine.join() !== canonical.join())
        disagreements.push(`${JSON.stringify(program)}: ${mine} vs canonical ${canonical}`);
    }
    console.log(
      `generated awk programs: 2500, accepted by gawk: ${accepted}, disagreements: ${disagreements.length}`,
    );
    expect(accepted).toBeGreaterThan(100);
    expect(disagreements).toEqual([]);
  }, 300_000);
});
