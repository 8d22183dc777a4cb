import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { GH_SPEC } from '../../../src/bash/programs/gh/spec.js';
import type { SubcommandSpec } from '../../../src/bash/programs/program.js';
import { checkProgram, type ReadKind } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function check(line: string, kind: ReadKind): { ok: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const verdict = checkProgram(programSpec('gh')!, cmd.argv, true, kind);
  return { ok: verdict.readOnly, reason: verdict.reason };
}

describe('gh: what only prints and exits is a local read', () => {
  test.each([
    'gh --version',
    'gh --help',
    'gh -h',
    'gh version',
    'gh help',
    'gh help issue list',
    'gh issue --help',
    'gh api --help',
    'gh pr create --help',
    'gh secret set -h',
    'gh -R acme/tool run --help',
  ])('%s', (line) => {
    expect(check(line, 'readOnly').ok).toBe(true);
  });

  test.each([
    'gh',
    'gh issue list',
    'gh run view 7',
    // -h is --hostname here, not --help.
    'gh auth login -h example.com',
    'gh auth logout -h github.com',
    'gh config get -h github.com oauth_token',
    'gh foo --help',
  ])('%s is not', (line) => {
    expect(check(line, 'readOnly').ok).toBe(false);
  });
});

describe('gh: reads of the user own GitHub', () => {
  test.each([
    'gh issue list --state closed --label regression -L 20',
    'gh issue ls --author @me --json number,title -q ".[].number"',
    'gh issue view 7 --comments',
    'gh issue status',
    'gh pr list --draft --base develop --search "review:required"',
    'gh pr view feature-x --json files --template "{{range .files}}{{.path}}{{end}}"',
    'gh pr diff 88 --name-only',
    'gh pr checks 88 --required --fail-fast',
    'gh pr status --conflict-status',
    'gh --repo acme/tool pr view 3',
    'gh attestation verify dist/tool.tar.gz --owner acme',
    'gh at verify tool.tar.gz -R acme/tool --signer-workflow acme/ci/.github/workflows/release.yml --format json',
    'gh attestation verify tool.tar.gz --owner acme -b tool.sigstore.json --deny-self-hosted-runners',
    'gh attestation inspect tool.tar.gz --bundle tool.sigstore.json',
    'gh attestation trusted-root --verify-only',
    'gh -R acme/tool issue list',
    'gh pr list -R acme/tool',
    'gh repo view acme/tool --branch next',
    'gh repo list acme --archived --visibility private',
    'gh repo deploy-key list',
    'gh run list --workflow ci.yml --status failure --commit abc123',
    'gh run view 991 --log-failed',
    'gh run view 991 --job 4 --attempt 2',
    'gh run watch 991 --exit-status --interval 10',
    'gh release list --exclude-drafts --order asc',
    'gh release view v2.1.0 --json assets',
    'gh workflow list --all',
    'gh workflow view ci.yml --yaml --ref release',
    'gh search code "parseArgs" --language go --filename main.go',
    'gh search issues "panic" --state open --sort created',
    'gh search prs --merged --author octocat',
    'gh search repos toolkit --stars ">100"',
    'gh search commits "fix typo" --author-date "<2024-01-01"',
    'gh label list --sort name',
    'gh gist list --secret --limit 5',
    'gh gist view 0a1b2c --raw --filename notes.md',
    'gh secret list --env staging',
    'gh variable list --org acme',
    'gh variable get REGION --env staging',
    'gh codespace list --repo acme/tool',
    'gh cs view --json name',
    'gh cache list --sort size_in_bytes --key deps-',
    'gh ruleset list --parents',
    'gh rs view 12 --org acme',
    'gh ruleset check trunk',
    'gh status --org acme -e acme/old',
    'gh org list',
    'gh project item-list 3 --owner acme --format json',
    'gh extension list',
    'gh ext search lint --limit 10',
    'gh gpg-key list',
    'gh ssh-key list',
    'gh alias list',
    'gh config list',
    'gh config list --host github.com',
    'gh config get git_protocol',
    'gh config get editor -h github.com',
    'gh auth status',
    'gh auth status --active',
  ])('%s', (line) => {
    expect(check(line, 'serviceRead')).toEqual({
      ok: true,
      reason: expect.stringContaining('only reads its service'),
    });
    expect(check(line, 'readOnly').ok).toBe(false);
  });

  test.each([
    ['gh issue list --web', 'not a read-only option'],
    ['gh pr view 3 -w', 'not a read-only option'],
    ['gh search repos toolkit --web', 'not a read-only option'],
    ['gh auth status --show-token', 'not a read-only option'],
    ['gh auth status -t', 'not a read-only option'],
    ['gh auth status --hostname example.com', 'not a read-only option'],
    ['gh config get oauth_token', 'may print a secret'],
    ['gh config get -h github.com oauth_token', 'may print a secret'],
    ['gh issue list $OPTS', 'as an option'],
    ['gh attestation verify oci://ghcr.io/acme/tool:1 --owner acme', 'pulls the image'],
    ['gh attestation verify tool.tar.gz --owner acme --bundle-from-oci', 'registry'],
    ['gh attestation verify "$ARTIFACT" --owner acme', ''],
    ['gh attestation verify tool.tar.gz --owner acme --hostname evil.example', 'hostname'],
    ['gh attestation trusted-root --tuf-url https://tuf.example --tuf-root root.json', 'tuf'],
    ['gh issue list --json title -q env', 'reads env'],
    ["gh pr view 3 --json body --jq '$ENV.GH_TOKEN'", 'reads $ENV'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'serviceRead');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe('gh: what writes, runs code or prints a secret is no read', () => {
  test.each([
    'gh browse',
    'gh browse 12',
    'gh auth token',
    'gh config set editor vim',
    'gh pr create --fill',
    'gh pr merge 3 --squash',
    'gh pr checkout 3',
    'gh pr comment 3 --body ok',
    'gh issue close 4',
    'gh issue edit 4 --add-label bug',
    'gh repo clone acme/tool',
    'gh repo sync',
    'gh repo delete acme/tool --yes',
    'gh run download 991 --dir out',
    'gh run rerun 991',
    'gh release download v1 --pattern "*.zip"',
    'gh release create v9',
    'gh gist create notes.md --public',
    'gh secret set TOKEN --body x',
    'gh variable set REGION --body eu',
    'gh cache delete --all',
    'gh workflow run deploy.yml',
    'gh extension install acme/gh-tool',
    'gh extension exec tool',
    'gh codespace ssh -c box',
    'gh codespace logs',
    'gh label create urgent',
    'gh mytool list',
    'gh browse --settings',
    'gh attestation download tool.tar.gz --owner acme',
  ])('%s', (line) => {
    expect(check(line, 'serviceRead').ok).toBe(false);
  });
});

describe('gh api: a GET of the API, or a GraphQL query', () => {
  test.each([
    'gh api user',
    'gh api /user/repos --paginate --slurp',
    'gh api repos/{owner}/{repo}/pulls -q ".[].title"',
    'gh api "repos/acme/tool/issues?state=closed&per_page=5" -i',
    'gh api -X GET search/repositories -f q=toolkit',
    'gh api --method=HEAD repos/acme/tool',
    'gh api -XGET repos/acme/tool/branches --template "{{range .}}{{.name}}{{end}}"',
    'gh api graphql -f query="query { viewer { login } }"',
    'gh api graphql -f query="{ repository(owner: \\"acme\\", name: \\"tool\\") { stargazerCount } }"',
  ])('%s', (line) => {
    expect(check(line, 'serviceRead').ok).toBe(true);
  });

  test.each([
    ['gh api -X POST repos/acme/tool/issues -f title=x', 'can write'],
    ['gh api --method PATCH repos/acme/tool', 'can write'],
    ['gh api -XDELETE repos/acme/tool', 'can write'],
    ['gh api -X "$M" repos/acme/tool', 'can write'],
    ['gh api repos/acme/tool/issues -f title=x', 'sends a POST'],
    ['gh api repos/acme/tool/issues -F title=x', 'not a read-only option'],
    ['gh api -X GET search/code -F q=@.env', 'not a read-only option'],
    ['gh api repos/acme/tool/issues --field title=x', 'not a read-only option'],
    ['gh api repos/acme/tool/issues --input body.json', 'not a read-only option'],
    ['gh api user --hostname example.com', 'not a read-only option'],
    ['gh api user -H "Authorization: token x"', 'not a read-only option'],
    ['gh api user --cache 1h', 'not a read-only option'],
    ['gh api user --verbose', 'not a read-only option'],
    ['gh api https://example.com/collect', 'not a path of the API'],
    ['gh api //example.com/collect', 'not a path of the API'],
    ['gh api "$URL"', 'as an option'],
    ['gh api "repos/$R"', 'not a path of the API'],
    ['gh api', 'takes one endpoint'],
    ['gh api user -q env', 'reads env'],
    ['gh api graphql -f query="mutation { deleteIssue(input: {}) { clientMutationId } }"', 'not a query'],
    ['gh api graphql -f query="query { a } mutation { b }"', 'not a query'],
    ['gh api graphql -f query="subscription { x }"', 'not a query'],
    ['gh api graphql -X GET -f query="{ viewer { login } }"', 'with a method'],
    ['gh api graphql -f owner=acme', 'without one query'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'serviceRead');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe('gh: files and code', () => {
  test.each(['gh pr list', 'gh api user', 'gh --version', 'gh pr create --help'])(
    '%s touches no files',
    (line) => {
      expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
    },
  );

  test('attestation verify reads the artifact, the bundle and the trusted root', () => {
    expect(
      shown('gh attestation verify dist/a.tgz --owner o -b a.json --custom-trusted-root root.jsonl'),
    ).toEqual({
      known: true,
      effects: ['read dist/a.tgz', 'read a.json', 'read root.jsonl'],
      code: [],
    });
    expect(shown('gh at inspect a.tgz --bundle a.json').effects).toEqual(['read a.tgz', 'read a.json']);
  });

  test.each([
    'gh release download v1',
    'gh gist create notes.md',
    'gh run download 3 -D out',
    'gh mytool',
    'gh attestation download a.tgz --owner o',
  ])('%s: files not listed', (line) => {
    expect(shown(line).known).toBe(false);
  });

  test.each([
    ['gh mytool list', ['program-option gh-mytool']],
    ['gh extension exec mytool', ['program-option gh extension exec']],
    ['gh repo clone acme/tool', ['program-option gh repo clone']],
    ['gh pr checkout 3', ['program-option gh pr checkout']],
    ['gh pr list', []],
  ])('%s runs %j', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });
});

describe("gh: the spec against each command's own --help", () => {
  const gh = spawnSync('gh', ['--version']).status === 0;
  const paths: { path: string; spec: SubcommandSpec }[] = [];
  const walk = (spec: SubcommandSpec, path: string[]) => {
    if (path.length > 0) paths.push({ path: path.join(' '), spec });
    for (const [name, sub] of Object.entries(spec.subcommands ?? {})) walk(sub, [...path, name]);
  };
  walk(GH_SPEC, []);
  /** Every option a help lists (its FLAGS and INHERITED FLAGS), with whether it takes a value and its letter. */
  const listed = (help: string) => {
    const options = new Map<string, string>();
    for (const line of help.split('\n')) {
      const entry = /^\s+(?:-(\w), )?--([\w-]+)( \S+)?(?:\s{2,}|$)/.exec(line);
      if (entry) options.set(entry[2]!, `${entry[3] ? 'value' : 'flag'}${entry[1] ? ` -${entry[1]}` : ''}`);
    }
    return options;
  };
  // The commands gh 2.23 has (the newer ones come from its source); each one's options must be the spec's.
  test.runIf(gh).each(paths.map((entry) => [entry.path, entry.spec]))('gh %s', (path, spec) => {
    const help = spawnSync('gh', [...path.split(' '), '--help'], { encoding: 'utf8', timeout: 20_000 });
    if (!help.stdout.includes(`gh ${path}`)) return;
    const own = new Map(
      [...spec.grammar.long].map(([name, o]) => {
        const letter = o.name.startsWith('--') ? '' : ` -${o.name}`;
        return [name, `${o.arity === 'value' ? 'value' : 'flag'}${name === 'help' ? '' : letter}`];
      }),
    );
    for (const [name, shape] of listed(help.stdout)) expect([name, own.get(name)]).toEqual([name, shape]);
  });
});
