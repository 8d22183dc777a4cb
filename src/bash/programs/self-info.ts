/**
 * Command lines that only make a program print what it is and exit: `rm --help`, `cargo --version`,
 * `kubectl version --client`. Each entry is what the program's own documentation says prints and exits: the GNU
 * coding standards' `--help` and `--version` for GNU programs, and each other program's documented version and
 * help words. Nothing else may be on the line (`rm --help x` is not listed): a program given more words may read
 * them first. The effect oracle runs each: a program that writes its own files or reaches the network to answer
 * (`terraform version`, `gcloud --version`) is not listed. Code runners that load the project's code to answer (`pytest --version` loads conftest.py) are not
 * listed.
 */
const GNU = ['--help', '--version'];

/** GNU programs (coreutils, findutils, diffutils, grep, sed, gawk, tar, gzip, make, bash's wrappers). */
const GNU_PROGRAMS =
  'ls cat head tail wc sort uniq cut tr tee paste join comm fold fmt nl od split csplit expand unexpand ' +
  'cp mv rm mkdir rmdir touch ln chmod chown chgrp install dd df du stat readlink realpath basename dirname ' +
  'date env nice nohup stdbuf timeout xargs find locate grep egrep fgrep sed tar gzip gunzip zcat ' +
  'diff cmp diff3 sdiff make md5sum sha1sum sha256sum sha512sum b2sum cksum base64 base32 seq sleep shuf ' +
  'truncate shred mktemp whoami id groups uname nproc printenv tac rev numfmt factor pr ptx tsort yes ' +
  'chroot setsid flock column file wget patch less more bzip2 xz zstd unzip gpg';

const TABLE: Record<string, readonly string[]> = {
  ...Object.fromEntries(GNU_PROGRAMS.split(' ').map((name) => [name, GNU])),
  git: ['--version', '--help', 'version'],
  node: ['--version', '-v', '--help', '-h'],
  npm: ['--version', '-v'],
  npx: ['--version', '-v'],
  pnpm: ['--version', '-v'],
  yarn: ['--version', '-v'],
  bun: ['--version', '-v', '--revision'],
  deno: ['--version', '-V'],
  python: ['--version', '-V', '--help', '-h'],
  python3: ['--version', '-V', '--help', '-h'],
  pip: ['--version', '-V'],
  pip3: ['--version', '-V'],
  // Not `uv version`: it reads (and with a value or --bump writes) the project's version in pyproject.toml.
  uv: ['--version', '-V'],
  cargo: ['--version', '-V', '--help', '-h'],
  rustc: ['--version', '-V', '--help', '-h'],
  rustup: ['--version', '-V'],
  go: ['version'],
  rtk: ['--version', '-V', '--help', '-h'],
  java: ['--version', '-version'],
  ruby: ['--version', '-v'],
  perl: ['--version', '-v'],
  docker: ['--version', '-v'],
  podman: ['--version', '-v'],
  kubectl: ['version --client', 'version --client=true'],
  helm: ['version', 'version --short', '--help', '-h'],
  // Not `terraform version`: it asks checkpoint-api.hashicorp.com for a newer release (the terraform module's).
  terraform: ['--help', '-help', '-h'],
  gh: ['--version', 'version'],
  aws: ['--version'],
  jq: ['--version', '--help', '-h'],
  rg: ['--version', '-V', '--help', '-h'],
  fd: ['--version', '-V', '--help', '-h'],
  curl: ['--version', '-V', '--help', '-h', '--manual', '-M'],
  ssh: ['-V'],
  gcc: ['--version', '--help'],
  clang: ['--version', '--help'],
  cmake: ['--version', '--help'],
  tsc: ['--version', '-v', '--help', '-h'],
  sqlite3: ['-version', '--version', '-help', '--help'],
  // PostgreSQL's psql: `--help` (`-?`) and `--version` (`-V`) print and exit before it reads a service file or connects.
  psql: ['--help', '-?', '--version', '-V'],
  // mysql's manual: `--help`/`-?` and `--version`/`-V` display and exit (the option files are read first, not run).
  mysql: ['--help', '-?', '--version', '-V'],
  // DuckDB's manual: `-version` and `-help` print and exit, in either spelling.
  duckdb: ['-version', '--version', '-help', '--help'],
  // sqlcmd's manual: `-?` displays the syntax summary of its options.
  sqlcmd: ['-?'],
  openssl: ['version'],
  tree: ['--version', '--help'],
  brew: ['--version', '-v'],
  tmux: ['-V'],
  zip: ['-v', '-h'],
  // Info-ZIP's unzip: `-h` prints the usage, `-hh` the extended help; zipinfo alone or with `-h` its usage.
  unzip: [...GNU, '-h', '-hh'],
  zipinfo: ['-h'],
  // gawk's manual: `-V` is `--version`; mawk's: `-W version` (and `-Wversion`) writes its version and exits 0.
  gawk: [...GNU, '-V'],
  mawk: ['-W version', '-Wversion', '-W usage', '-Wusage'],
  // vim's xxd reads `--NAME` as `-NAME` and any option beginning `-h` or `-v` as help or version.
  xxd: ['-h', '--help', '-v', '--version', '-version'],
  iconv: ['--help', '--usage', '--version', '-V'],
  // argparse's -h/--help; not `ansible-lint --version`, which asks PyPI for a newer release.
  'ansible-test': ['--help', '-h', '--version'],
  'ansible-lint': ['--help', '-h'],
  // Prometheus's flags (kingpin): `--help`, `--help-long` and `--help-man` print usage, `--version` the build.
  prometheus: ['--help', '-h', '--help-long', '--help-man', '--version'],
  // `wget --help` lists `-h, --help` and `-V, --version`.
  wget: [...GNU, '-h', '-V'],
};

/** Whether the command line only prints what the program is and exits (`words` after the program). */
export function printsAndExits(program: string, words: readonly string[]): boolean {
  // git.c reads `git CMD --help` as `git help CMD`: the page of CMD, as `git help CMD` shows it.
  if (program === 'git' && words.length === 2 && words[1] === '--help')
    return /^[a-z][a-z0-9-]*$/.test(words[0]!);
  const tails = Object.hasOwn(TABLE, program) ? TABLE[program]! : undefined;
  return tails !== undefined && words.length > 0 && tails.includes(words.join(' '));
}
