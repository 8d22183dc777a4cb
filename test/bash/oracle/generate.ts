/**
 * Seeded, deterministic command lines that mix the constructs where a static reading of bash goes wrong: line
 * continuations (also a line that is only `\` and a backslash before CR-LF), CR, `$"..."`, ANSI-C quoting,
 * builtins that evaluate array subscripts, shell state changed before later commands (PATH, HOME, IFS, CDPATH,
 * cd, hash, enable, set, shopt), here-docs, aliases, functions, eval, trap, comments, case, groups, subshells,
 * process and command substitution.
 */

export function generateLines(count: number, seed: number): string[] {
  const rng = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(line(rng));
  return out;
}

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The list shuffled in place, the same way for the same seed. */
export function shuffle<T>(list: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)]!;
}

const PROGRAMS = [
  'rm -rf x',
  'touch /tmp/p',
  'cat .env',
  'ls -la',
  'git status',
  'find . -delete',
  'echo hi',
  'curl http://h/x',
  'sed -n p a.txt',
  "printf '%s\\n' a",
  'id',
  'true',
  'cat id_rsa',
  'wc -l notes.txt',
  'grep -r x .',
  'chmod 600 a.txt',
  'mv a.txt b.txt',
  'npm test',
  'python3 -c 1',
];

const WORDS = [
  'plain',
  "'single quoted'",
  '"double $HOME"',
  "$'ansi\\tc'",
  "$'\\x72m'",
  "$'\\162\\155'",
  '$"locale"',
  '$"-delete"',
  '*.txt',
  'src/*.ts',
  '[ab].txt',
  '~/x',
  '~root/y',
  '~',
  '{a,b}',
  '{1..3}',
  '$(echo sub)',
  '`echo bt`',
  '$((1+2))',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash text
  '${x:-def}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash text
  '${#x}',
  'a\\ b',
  '"$@"',
  '$*',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash text
  '"${a[@]}"',
  '--opt=~/z',
  'k=~/v',
  '#notcomment',
  'a#b',
  '"it\'s"',
  "'a'\\''b'",
  '-',
  '--',
  '"$x"',
  '$x',
  '\\$x',
  '"\\$(no)"',
  '@(a|b).txt',
  '.e*',
  '.*',
];

const SEPARATORS = [
  '; ',
  ' && ',
  ' || ',
  ' | ',
  '\n',
  '\n\\\n',
  ' \\\n',
  ' \\\r\n',
  '\r\n',
  ' & ',
  ';\n',
  ' ;; ',
  '\n\n',
  ' |& ',
  ';\r',
];

function command(rng: Rng): string {
  const base = pick(rng, PROGRAMS);
  const n = Math.floor(rng() * 3);
  let s = base;
  for (let i = 0; i < n; i++) s += ` ${pick(rng, WORDS)}`;
  return s;
}

const SUBSCRIPT = [
  (c: string) => `test -v 'a[$(${c})]'`,
  (c: string) => `[ -v 'a[$(${c})]' ]`,
  (c: string) => `[[ -v a[$(${c})] ]]`,
  (c: string) => `printf -v 'a[$(${c})]' x`,
  (c: string) => `read 'a[$(${c})]' <<< x`,
  (c: string) => `declare 'a[$(${c})]=1'`,
  (c: string) => `unset 'a[$(${c})]'`,
  (c: string) => `let 'a[$(${c})]=1'`,
  (c: string) => `(( a[$(${c})] ))`,
  (c: string) => `echo $(( a[$(${c})] ))`,
  (c: string) => `declare -n r='a[$(${c})]'; r=1`,
  (c: string) => `echo "\${a[$(${c})]}"`,
  (c: string) => `local 'a[$(${c})]'`,
  (c: string) => `mapfile 'a[$(${c})]' < /dev/null`,
  (c: string) => `typeset -a 'b[$(${c})]=2'`,
  (c: string) => `export 'a[$(${c})]=1'`,
  (c: string) => `test -v "a[\\$(${c})]"`,
  (c: string) => `[[ -R a[$(${c})] ]]`,
  (c: string) => `x='a[$(${c})]'; echo $(( x ))`,
];

const STATE = [
  'PATH=scripts',
  'export PATH=scripts:$PATH',
  'declare -x PATH=scripts',
  'printf -v PATH %s scripts',
  'read PATH <<< scripts',
  'PATH=scripts:$PATH hash -r',
  'HOME=/tmp',
  'export HOME=scripts',
  'printf -v HOME %s scripts',
  'read -r HOME <<< docs',
  'IFS=/',
  'IFS=:',
  "IFS=$'\\n'",
  'CDPATH=$HOME',
  'CDPATH=/run/w/home',
  'cd ~',
  'cd -- docs',
  'cd -P a/b/deps',
  'cd -L a/b/deps/..',
  'cd src',
  'cd ..',
  'cd -',
  'pushd src',
  'popd',
  'hash -p scripts/ls ls',
  'hash -p /tmp/x cat',
  'enable -n echo',
  'enable -n test',
  'set -f',
  'set -o noglob',
  'shopt -s nullglob',
  'shopt -s dotglob',
  'shopt -s failglob',
  'shopt -s nocaseglob',
  'shopt -s extglob',
  'set -u',
  'set -e',
  'set -- a "b c"',
  'set --',
  'BASH_ENV=s.sh',
  'unset PATH',
  'unset HOME',
  'declare -r PATH',
  'x="rm -rf y"',
  'x=$HOME',
  'a=(1 "2 3")',
  'declare -a a=(p q)',
  'local x=1',
  'readonly y=2',
  'ls() { echo fn; }',
  'shopt -s expand_aliases; alias ls=cat',
  'export -f ls',
  'umask 077',
  'set -o posix',
  'shopt -s lastpipe',
  'LC_ALL=C',
  'unset -f ls',
];

const AFTER = [
  'ls',
  'cat id_rsa',
  'git status',
  'cat ~/x',
  'ls *',
  'echo $x',
  'echo $HOME/.ssh',
  'echo ~',
  'rm $x',
  'cat .ssh/id_rsa',
  '$x',
  'echo "$@"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash text
  'echo "${a[@]}"',
  'test -f a.txt',
  'echo *.txt',
  'ls -d .*',
  'cd .ssh',
  'echo a/b',
];

function stateLine(rng: Rng): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < n; i++) parts.push(pick(rng, STATE));
  parts.push(pick(rng, AFTER));
  if (rng() < 0.5) parts.push(pick(rng, AFTER));
  return joinParts(rng, parts);
}

function joinParts(rng: Rng, parts: string[]): string {
  let s = parts[0]!;
  for (let i = 1; i < parts.length; i++)
    s += pick(rng, rng() < 0.6 ? ['; ', ' && ', '\n'] : SEPARATORS) + parts[i];
  return s;
}

const BLOCKS: ((rng: Rng) => string)[] = [
  (rng) => command(rng),
  (rng) => pick(rng, SUBSCRIPT)(command(rng)),
  stateLine,
  (rng) => `cat <<EOF\n${pick(rng, WORDS)} $(${command(rng)})\nEOF`,
  (rng) => `cat <<'EOF'\n$(${command(rng)})\nEOF`,
  (rng) => `cat <<-EOF\n\t$(${command(rng)})\n\tEOF`,
  (rng) => `bash <<EOF\n${command(rng)}\nEOF`,
  (rng) => `cat <<EOF; ${command(rng)}\nbody \\\nEOF`,
  (rng) => `cat <<< "$(${command(rng)})"`,
  (rng) => `shopt -s expand_aliases\nalias q='${command(rng)}'\nq ${pick(rng, WORDS)}`,
  (rng) => `shopt -s expand_aliases; alias q='${command(rng)}'; q`,
  (rng) => `shopt -s expand_aliases\nalias q='echo '\nalias r='${command(rng)}'\nq r`,
  (rng) => `alias q='${command(rng)}'\nq`,
  (rng) => `f() { ${command(rng)} "$@"; }; f ${pick(rng, WORDS)}`,
  (rng) => `function g { ${command(rng)}; }\ng ${pick(rng, WORDS)}`,
  (rng) => `ls() { ${command(rng)}; }; ls ${pick(rng, WORDS)}`,
  (rng) => `f() { local x=$(${command(rng)}); echo "$x"; }; f`,
  (rng) => `eval '${command(rng)}'`,
  (rng) => `eval "${command(rng)}"`,
  (rng) => `x='${command(rng)}'; eval "$x"`,
  (rng) => `eval ${command(rng)} ${pick(rng, WORDS)}`,
  (rng) => `trap '${command(rng)}' EXIT`,
  (rng) => `trap "${command(rng)}" ERR; false`,
  (rng) => `trap -- '${command(rng)}' RETURN; f() { :; }; f`,
  (rng) => `${command(rng)} # $(${command(rng)})`,
  (rng) => `echo a#b; ${command(rng)} #${pick(rng, WORDS)}`,
  (rng) => `case ${pick(rng, WORDS)} in x) ${command(rng)};; *) ${command(rng)};; esac`,
  (rng) => `case x in x) ${command(rng)};& y) ${command(rng)};;& *) ${command(rng)};; esac`,
  (rng) => `{ ${command(rng)}; }`,
  (rng) => `( ${command(rng)} )`,
  (rng) => `cat <(${command(rng)})`,
  (rng) => `${command(rng)} > >(${command(rng)})`,
  (rng) => `echo "$(${command(rng)})"`,
  (rng) => `echo \`${command(rng)}\``,
  (rng) => `echo $(< a.txt) $(${command(rng)})`,
  (rng) => `coproc ${command(rng)}`,
  (rng) => `for i in ${pick(rng, WORDS)} 2; do ${command(rng)} $i; done`,
  (rng) => `for ((i=0;i<2;i++)); do ${command(rng)}; done`,
  (rng) => `while false; do ${command(rng)}; done; until true; do :; done`,
  (rng) => `command ${command(rng)}`,
  (rng) => `builtin echo ${pick(rng, WORDS)}`,
  (rng) => `exec ${command(rng)}`,
  (rng) => `time ${command(rng)}`,
  (rng) => `! ${command(rng)}`,
  (rng) => `sudo ${command(rng)}`,
  (rng) => `env X=1 ${command(rng)}`,
  (rng) => `X=${pick(rng, WORDS)} Y=2 ${command(rng)}`,
  (rng) => `${pick(rng, ["$'\\x72m'", 'r\\m', '"r"m', "'r'm", '$"rm"', 'r""m', "$'rm'"])} -rf x`,
  (rng) => `echo a\rb; ${command(rng)}\r`,
  (rng) => `${command(rng)}\r\n${command(rng)}`,
  (rng) => `echo x\n\\\n${command(rng)}`,
  (rng) => `echo hi \\\r\n${command(rng)}`,
  (rng) => `${command(rng)} \\\n ${pick(rng, WORDS)}`,
  (rng) => `\\\n${command(rng)}`,
  (rng) => `echo ${pick(rng, WORDS)} \\`,
  (rng) => `find src $"-delete" ${pick(rng, WORDS)}`,
  (rng) =>
    `echo $"${pick(rng, WORDS)}" $'${pick(rng, ['\\n', "\\'", '\\x41', '\\u00e9', '\\cA', '\\e', '\\\\'])}'`,
  (rng) => `x=${pick(rng, WORDS)}; ${command(rng)} $x "$x"`,
  (rng) => `arr=(${pick(rng, WORDS)} ${pick(rng, WORDS)}); ${command(rng)} "\${arr[@]}"`,
  (rng) => `declare x=$(${command(rng)})`,
  (rng) => `export y="$(${command(rng)})" z=${pick(rng, WORDS)}`,
  (rng) => `printf -v v %s ${pick(rng, WORDS)}; echo "$v"`,
  (rng) => `[[ ${pick(rng, WORDS)} == ${pick(rng, WORDS)} ]] && ${command(rng)}`,
  (rng) => `(( x = $(${command(rng)} | wc -l) ))`,
  (rng) => `echo \${x:-$(${command(rng)})} \${y:=$(${command(rng)})}`,
  (rng) => `${command(rng)} > "$(${command(rng)})"`,
  (rng) => `${command(rng)} 2>&1 >/dev/null`,
  (rng) =>
    `cd ${pick(rng, ['--', '-P', '-L', '-e'])} ${pick(rng, ['~/.ssh', 'docs', 'a/b/deps/..', '/tmp', '-'])} && ${command(rng)}`,
  (rng) => `set -- ${pick(rng, WORDS)} ${pick(rng, WORDS)}; ${command(rng)} "$@" $*`,
  (rng) =>
    `enable -n ${pick(rng, ['echo', 'test', 'printf', '[', 'kill'])}; ${pick(rng, ['echo', 'test', 'printf', '[', 'kill'])} x`,
  (rng) =>
    `hash -p ${pick(rng, ['scripts/ls', 'scripts/git', '/usr/bin/rm'])} ${pick(rng, ['ls', 'git', 'cat'])}; ${pick(rng, AFTER)}`,
  (rng) => `source ${pick(rng, ['s.sh', '/dev/null', 'missing'])}; ${command(rng)}`,
  (rng) => `if ${command(rng)}; then ${command(rng)}; elif false; then :; else ${command(rng)}; fi`,
  (rng) => `select v in a; do ${command(rng)}; done`,
  (rng) => `${command(rng)} | while read -r l; do ${command(rng)}; done`,
  (rng) => `mapfile -t m < <(${command(rng)})`,
  (rng) => `type ${pick(rng, ['ls', 'cd', 'f'])}; ${command(rng)}`,
];

function line(rng: Rng): string {
  const n = 1 + Math.floor(rng() * 3);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(pick(rng, BLOCKS)(rng));
  let s = parts[0]!;
  for (let i = 1; i < parts.length; i++) {
    const needsNewline = /\n(EOF)?$/.test(parts[i - 1]!) || parts[i - 1]!.endsWith('EOF');
    s += (needsNewline ? '\n' : pick(rng, SEPARATORS)) + parts[i];
  }
  return s;
}
