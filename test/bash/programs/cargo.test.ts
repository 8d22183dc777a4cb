import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string) {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
}

describe('cargo', () => {
  test.each([
    'cargo -V',
    'cargo --version',
    'cargo -vV',
    'cargo --list',
    'cargo --help',
    'cargo',
    'cargo version',
    'cargo version --verbose',
    'cargo help',
    'cargo help tree',
    'cargo help b',
    'cargo build --help',
    'cargo b -h',
    'cargo publish --help',
    'cargo locate-project',
    'cargo locate-project --workspace --message-format plain',
    'cargo pkgid',
    'cargo pkgid serde',
    'cargo pkgid -p serde --offline',
    'cargo verify-project',
    'cargo read-manifest -q',
    'cargo metadata --no-deps',
    'cargo metadata --format-version 1 --no-deps --color never',
    'cargo metadata --locked --format-version=1 --all-features',
    'cargo metadata --frozen --filter-platform x86_64-unknown-linux-gnu -F a,b',
    'cargo tree --locked',
    'cargo tree --frozen -e normal,build --depth 2 --prefix none --charset ascii',
    'cargo tree --locked -i serde',
    'cargo tree --locked --invert serde --target all --no-dedupe',
    'cargo tree --locked -d -p app --workspace --exclude x --prune y -f "{p} {f}"',
    'cargo --locked tree --no-default-features --features a',
    'cargo tree --offline --locked -vv',
    'cargo search serde',
    'cargo search --limit 20 tokio -q',
    // a registry read like search (it writes no Cargo.lock): the crate's name and version only
    'cargo info serde',
    'cargo info serde@1.0.200',
  ])('%s only reads', (line) => {
    const v = verdict(line);
    expect(v.readOnly, v.reason).toBe(true);
    expect(shown(line)).toMatchObject({ known: true, effects: [], code: [] });
  });

  test.each([
    // resolving the graph writes Cargo.lock when it is missing or stale
    'cargo tree',
    'cargo tree --depth 1',
    'cargo tree --offline',
    'cargo metadata',
    'cargo metadata --format-version 1',
    // the project's build scripts and proc macros, or writes
    'cargo build',
    'cargo check',
    'cargo c',
    'cargo clippy',
    'cargo clippy --help',
    'cargo fmt',
    'cargo doc --no-deps',
    'cargo test',
    'cargo run -- --help',
    'cargo build --release --help',
    'cargo build --help x',
    'cargo update --dry-run',
    'cargo fetch',
    'cargo generate-lockfile',
    'cargo add serde',
    'cargo vendor',
    'cargo clean',
    'cargo install ripgrep',
    'cargo info serde --registry internal',
    'cargo config get',
    'cargo login',
    'cargo owner --list',
    // options that run programs, change the project or reach another server
    'cargo --explain E0308',
    'cargo -C ../other tree --locked',
    'cargo --config build.rustc-wrapper=./x tree --locked',
    'cargo tree --locked --config build.rustc="./x"',
    'cargo tree --locked -Z unstable-options',
    'cargo metadata --no-deps --manifest-path ../other/Cargo.toml',
    'cargo locate-project --manifest-path ~/.ssh/Cargo.toml',
    'cargo search --index https://example.com/index serde',
    'cargo search --registry internal serde',
    // a rustup toolchain, an external command, an unknown option
    'cargo +nightly tree --locked',
    'cargo help zzz',
    'cargo zzz --help',
    'cargo tree --locked --zz',
    'cargo tree --lock',
  ])('%s is not read-only', (line) => {
    expect(verdict(line).readOnly).toBe(false);
  });

  test('--config is code for every command, as before', () => {
    expect(shown('cargo --config a=b tree --locked').code).toEqual(['environment --config']);
    expect(shown('cargo build').code).toEqual(['script-file cargo build']);
    expect(shown('cargo read-manifest').code).toEqual([]);
  });
});
