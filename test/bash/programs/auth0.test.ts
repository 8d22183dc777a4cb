import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram, type ReadKind } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function check(line: string, kind: ReadKind): { ok: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const verdict = checkProgram(programSpec('auth0')!, cmd.argv, true, kind);
  return { ok: verdict.readOnly, reason: verdict.reason };
}

describe('auth0: reads of the user own tenant', () => {
  test.each([
    'auth0 --help',
    'auth0 -v',
    'auth0 --version',
    'auth0 roles --help',
    'auth0 clients ls --csv',
    'auth0 apps show abc --json',
    'auth0 apps ls -n 20 --json-compact',
    'auth0 users search -q "name:Ann" -n 5 --sort created_at:1',
    'auth0 users search-by-email ann@example.org --picker',
    'auth0 users roles show auth0|42 -n 3',
    'auth0 users blocks list auth0|42',
    'auth0 logs tail -f type:f -n 10',
    'auth0 logs ls --filter type:s --json',
    'auth0 actions diff act_1',
    'auth0 actions modules versions ls mod_1',
    'auth0 grants ls --audience https://api.example.org',
    'auth0 organizations roles members list org_1 -r rol_1',
    'auth0 ap sit show',
    'auth0 attack-protection bd show --json',
    'auth0 organizations --help',
    'auth0 ul prompts show signup -l fr',
    'auth0 qs ls',
    'auth0 roles perms ls rol_1',
    'auth0 --tenant team.eu.auth0.com domains ls',
    'auth0 rules show rul_1 --tenant team.eu.auth0.com --no-input --no-color --debug',
    'auth0 tenant-settings show --agent-mode',
    'auth0 event-streams stats es_1 --from -3d --to 2026-01-02',
    'auth0 api users',
    'auth0 api GET /users/auth0|42/roles',
    'auth0 api get roles -q per_page=5 -q page=2',
    'auth0 api tenants/settings',
    'auth0 api get stats/daily --query from=20260101',
  ])('%s', (line) => {
    expect(check(line, 'serviceRead')).toMatchObject({ ok: true });
    expect(check(line, 'readOnly').ok).toBe(false);
    expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
  });

  test.each([
    ['auth0', 'without a command'],
    ['auth0 apps', 'only --help'],
    ['auth0 apps list --reveal-secrets', 'is not a read-only option'],
    ['auth0 apps ls -r', 'is not a read-only option'],
    ['auth0 apps show abc -nr', 'unknown option'],
    ['auth0 apps create --name x', 'not a known read-only subcommand'],
    ['auth0 apps open abc', 'not a known read-only subcommand'],
    ['auth0 apps use abc', 'not a known read-only subcommand'],
    ['auth0 tenants use team', 'not a known read-only subcommand'],
    ['auth0 test token -a https://api', 'not a known read-only subcommand'],
    ['auth0 login --client-secret s --domain d', 'not a known read-only subcommand'],
    ['auth0 apis show api_1 --json', 'not a known read-only subcommand'],
    ['auth0 logs streams show ls_1', 'not a known read-only subcommand'],
    ['auth0 event-streams show es_1', 'not a known read-only subcommand'],
    ['auth0 email provider show', 'not a known read-only subcommand'],
    ['auth0 orgs invitations list org_1', 'not a known read-only subcommand'],
    ['auth0 users delete auth0|42', 'not a known read-only subcommand'],
    ['auth0 rules enable rul_1', 'not a known read-only subcommand'],
    ['auth0 users show x --client-secret s', 'unknown option'],
    ['auth0 api get clients', 'may print a secret'],
    ['auth0 api clients/abc', 'may print a secret'],
    ['auth0 api get resource-servers', 'may print a secret'],
    ['auth0 api get users/../clients', 'may print a secret'],
    ['auth0 api get "users?fields=x"', 'may print a secret'],
    ['auth0 api get users%2F..%2Fclients', 'may print a secret'],
    ['auth0 api get log-streams', 'may print a secret'],
    ['auth0 api delete users/auth0|42 --force', 'can write'],
    ['auth0 api post users', 'can write'],
    ['auth0 api users --data {}', 'is not a read-only option'],
    ['auth0 api', 'takes a method and a path'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'serviceRead');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});
