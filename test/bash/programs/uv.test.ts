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

describe('uv', () => {
  test.each([
    'uv',
    'uv --help',
    'uv -h',
    'uv -V',
    'uv help',
    'uv help sync',
    'uv help pip install --no-pager',
    'uv sync --help',
    'uv lock -h',
    'uv pip install --help',
    'uv python install --help',
    'uv version',
    'uv version --short',
    'uv version --output-format json --frozen',
    'uv pip list',
    'uv pip ls --format json -q',
    'uv pip list --editable --exclude-editable --exclude pip --strict',
    'uv pip list --system --offline --no-progress --color never',
    'uv pip freeze',
    'uv pip freeze --exclude-editable --strict',
    'uv pip show requests',
    'uv pip show --files requests urllib3',
    'uv pip tree',
    'uv pip tree -d 2 --invert --package requests --no-dedupe --show-version-specifiers',
    'uv pip check',
    'uv pip check --python-version 3.12 --python-platform linux',
    'uv tree --frozen',
    'uv tree --frozen --depth 2 --no-dedupe --universal --package app',
    'uv --no-config tree --frozen --no-dev --group lint --all-groups',
    'uv python list',
    'uv python ls --only-installed --all-versions --output-format json',
    'uv python list 3.12',
    'uv python find',
    'uv python find 3.11 --show-version --resolve-links',
    'uv python dir --bin',
    'uv cache dir',
    'uv tool dir',
    'uv tool dir --bin',
    'uv tool list --show-paths --show-version-specifiers',
    'uv tool ls',
  ])('%s only reads', (line) => {
    const v = verdict(line);
    expect(v.readOnly, v.reason).toBe(true);
    expect(shown(line)).toMatchObject({ known: true, effects: [], code: [] });
  });

  test.each([
    // locking, syncing, installing, building, running
    'uv tree',
    'uv tree --depth 2',
    'uv tree --locked',
    'uv tree --frozen --outdated',
    'uv sync',
    'uv sync --frozen',
    'uv lock',
    'uv lock --locked',
    'uv venv',
    'uv venv .venv',
    'uv export',
    'uv export -o requirements.txt',
    'uv run ls',
    'uv run --frozen ls',
    'uv run -- --help',
    'uv pip install requests',
    'uv pip install --help requests',
    'uv pip uninstall requests',
    'uv pip compile requirements.in',
    'uv pip sync requirements.txt',
    'uv add requests',
    'uv version 1.2.3',
    'uv version --bump minor',
    'uv version --dry-run --bump patch',
    'uv cache clean',
    'uv cache clear',
    'uv cache prune',
    'uv python install 3.12',
    'uv python pin 3.12',
    'uv tool install ruff',
    'uv tool run ruff check',
    'uv self update',
    'uv auth token',
    'uv auth token pypi.org',
    'uv workspace metadata',
    // the index (with its credentials), another interpreter or folder, another configuration
    'uv pip list --outdated',
    'uv pip tree --outdated',
    'uv tool list --outdated',
    'uv pip list --python ./evil',
    'uv pip list -p /tmp/python',
    'uv pip freeze --path ~/.local/lib',
    'uv pip show --target ./t requests',
    'uv pip list --prefix ./p',
    'uv pip list --index-url https://example.com',
    'uv --directory ../other pip list',
    'uv --project ../other tree --frozen',
    'uv --config-file ./uv.toml pip list',
    'uv --cache-dir ./c cache dir',
    'uv --show-settings pip list',
    'uv --allow-insecure-host example.com pip list',
    'uv python list --python-downloads-json-url https://example.com/x.json',
    'uv python find --script x.py',
    'uv pip list --zz',
    'uv pip lis',
  ])('%s is not read-only', (line) => {
    expect(verdict(line).readOnly).toBe(false);
  });

  test('uv run still hands its command to the analysis', () => {
    expect(analyze('uv run rm -rf x').commands.map((c) => c.name?.program)).toContain('rm');
  });
});
