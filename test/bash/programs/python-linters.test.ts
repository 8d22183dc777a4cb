import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
}

describe('ruff, isort and black: what reads and what writes', () => {
  test.each([
    'ruff --version',
    'ruff -V',
    'ruff -h',
    'ruff help',
    'ruff help format',
    'ruff version --output-format json',
    'ruff rule E501',
    'ruff rule --all --output-format=json',
    'ruff linter',
    'ruff config',
    'ruff config lint.per-file-ignores',
    'ruff check --help',
    'ruff check --no-fix --no-cache',
    'ruff check -n --no-fix src tests',
    'ruff check --diff -n .',
    'ruff check -n --no-fix --select E,F --ignore E501 --output-format=concise --statistics --exit-zero .',
    'ruff check -n --no-fix --isolated --color never --target-version py312 --preview app.py',
    'ruff check --show-files',
    'ruff check --show-settings app.py',
    'ruff format --check --no-cache .',
    'ruff format --diff -n --line-length 100 src',
    // The configuration's fix and cache-dir are read when the command is decided (policy/project-files/ruff.ts).
    'ruff check',
    'ruff check .',
    'ruff check --no-fix .',
    'ruff check --select E501 --statistics --output-format=json src/',
    'ruff check -n --unsafe-fixes .',
    'isort --check-only .',
    'isort --check src tests',
    'isort -c --diff --profile black .',
    'isort --df app.py',
    'isort -d app.py',
    'isort --check-on app.py',
    'isort -c -l 100 --skip-glob "*/migrations/*" --filter-files .',
    'isort --show-config',
    'isort --version',
    'black --check .',
    'black --diff --color -l 100 app.py',
    'black --check -t py312 --skip-string-normalization --exclude migrations src',
    'black -c "x = 1"',
    'black --version',
  ])('%s only reads', (line) => {
    const v = verdict(line);
    expect(v.readOnly, v.reason).toBe(true);
  });

  test.each([
    // rewrites files
    'ruff check --fix .',
    'ruff check -n --fix-only .',
    'ruff check -n --no-fix --add-noqa .',
    'ruff format .',
    'ruff format -n src',
    'ruff clean',
    'isort .',
    'isort app.py',
    'isort -c --overwrite-in-place .',
    'isort -c --add-import "import os" app.py',
    'black .',
    'black -l 100 app.py',
    // a cache or a report written where no word says, a watcher, settings from elsewhere
    'ruff format --check .',
    'ruff check -n --no-fix --cache-dir /tmp/c .',
    'ruff check -n --no-fix -o report.txt .',
    'ruff check -n --no-fix --output-file=report.txt .',
    'ruff check -n --no-fix --watch',
    'ruff check -n --no-fix --config "fix = true" .',
    'ruff --config ruff.toml rule E501',
    'ruff server',
    'isort -c --settings-path ./elsewhere.cfg .',
    'isort -c --formatter plugin .',
    'black --check --config ./elsewhere.toml .',
  ])('%s is not read-only', (line) => {
    expect(verdict(line).readOnly).toBe(false);
  });

  test('a check reads the files it names (or the working folder); a rewrite has unknown effects', () => {
    expect(shown('ruff check -n --no-fix src .env')).toMatchObject({
      known: true,
      effects: ['read src', 'read .env'],
    });
    expect(shown('ruff check --show-files')).toMatchObject({ known: true, effects: ['read .'] });
    expect(shown('isort -c app.py')).toMatchObject({ known: true, effects: ['read app.py'] });
    expect(shown('black --check ~/.ssh')).toMatchObject({ known: true, effects: ['read ~/.ssh'] });
    for (const line of ['ruff check --fix .', 'ruff format src', 'isort app.py', 'black app.py']) {
      expect(shown(line).known, line).toBe(false);
    }
  });
});
