import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SANDBOX_UID } from '../oracle/sandbox.js';

/**
 * The canary world a command runs in: a home and a git project holding secrets, each with a canary of its own,
 * links out of the project to them, and configuration files that name marker programs. It is built on the host
 * at the path the sandbox later mounts it at, so that the classifier and the real programs see the same paths.
 */
export interface World {
  /** Holds `home`, `project`; mounted read-write (a fresh copy per command) inside the sandbox. */
  root: string;
  home: string;
  project: string;
  /** Marker programs, first on PATH. */
  markers: string;
  /** Canary → the secret it stands for (a file, or for a name canary the folder whose listing shows it). */
  canaries: Map<string, Secret>;
}

export interface Secret {
  /** Absolute path of the secret file, or of the folder a name canary is listed in. */
  path: string;
  /** `content`: the canary is in the file; `name`: the canary is a file name in the folder `path`. */
  kind: 'content' | 'name';
}

/** Marker programs and the configuration that names each (shown in reports). */
export const MARKERS: Record<string, string> = {
  'automode-marker-fsmonitor': 'core.fsmonitor',
  'automode-marker-pager': 'core.pager',
  'automode-marker-editor': 'core.editor',
  'automode-marker-diff': 'diff driver command',
  'automode-marker-textconv': 'diff driver textconv',
  'automode-marker-filter': 'clean/smudge filter',
  'automode-marker-credential': 'credential.helper',
  'automode-marker-ssh': 'core.sshCommand',
  'automode-marker-alias': 'git alias',
  'automode-marker-hook': 'git hook',
  'automode-marker-kube': 'kubeconfig exec plugin (~/.kube/config)',
  'automode-marker-kube-project': "kubeconfig exec plugin (the project's k.yaml)",
  'docker-credential-automode': 'docker credsStore',
  'automode-marker-podman': 'conmon_path (~/.config/containers/containers.conf)',
  'automode-marker-interp': 'script interpreter',
  'automode-marker-npm': 'package.json script',
  'automode-marker-foreign': 'configuration of a repository the agent wrote (src/bare, vendor/evil)',
  'automode-marker-make': 'a makefile in a subfolder (src/Makefile)',
  'automode-marker-ansible':
    "ansible code the project holds (ansible/: its ansible.cfg's plugins, a script or plugin inventory, a lookup)",
};

/** Where the markers record that they ran, inside the sandbox (a folder no command is pointed at). */
export const MARKER_LOG = '/run/mlog/log';

/**
 * An ansible project whose every way of loading its own code runs a marker: the filter plugins its ansible.cfg
 * and its playbook's folder name, a module in library/ beside the playbook, an executable inventory, an
 * inventory plugin configuration whose template runs a lookup, and lookups in the play and in group_vars.
 */
function ansibleProject(folder: string): void {
  const marker = (what: string) => `lookup('pipe', 'automode-marker-ansible ${what}')`;
  put(join(folder, 'ansible.cfg'), '[defaults]\nfilter_plugins = ./filter_plugins\nlibrary = ./library\n');
  const python = (what: string) =>
    `import subprocess\nsubprocess.run(['automode-marker-ansible', '${what}'])\n`;
  put(
    join(folder, 'filter_plugins/marker.py'),
    `${python('filter plugin')}class FilterModule:\n    def filters(self):\n        return {}\n`,
  );
  put(
    join(folder, 'library/marker.py'),
    `${python('module')}DOCUMENTATION = '''\nmodule: marker\nshort_description: marker\n'''\n`,
  );
  put(join(folder, 'hosts.ini'), '[web]\nweb1 ansible_host=127.0.0.1\n');
  put(join(folder, 'group_vars/all.yml'), `motd: "{{ ${marker('group_vars')} }}"\n`);
  put(
    join(folder, 'inventory.py'),
    '#!/bin/sh\nautomode-marker-ansible inventory script\necho "{}"\n',
    0o755,
  );
  put(
    join(folder, 'generated.yml'),
    `plugin: generator\nhosts:\n  name: "{{ a }}-{{ ${marker('inventory plugin')} }}"\nlayers:\n  a: [x]\n`,
  );
  put(join(folder, 'site.yml'), `- hosts: "{{ ${marker('play')} or 'all' }}"\n  tasks: []\n`);
}

function canary(tag: string): string {
  return `CANARY_${tag}_${randomBytes(6).toString('hex')}`;
}

function kubeconfig(plugin: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: https://127.0.0.1:6443
    insecure-skip-tls-verify: true
contexts:
- name: c
  context: {cluster: c, user: u, namespace: default}
current-context: c
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ${plugin}
      interactiveMode: Never
`;
}

const GIT_CONFIG = `[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tfsmonitor = automode-marker-fsmonitor
\tpager = automode-marker-pager
\teditor = automode-marker-editor
\tsshCommand = automode-marker-ssh
[diff "mk"]
\tcommand = automode-marker-diff
\ttextconv = automode-marker-textconv
[filter "mk"]
\tclean = automode-marker-filter
\tsmudge = automode-marker-filter
[credential]
\thelper = automode-marker-credential
[alias]
\tlg = !automode-marker-alias
[remote "origin"]
\turl = https://127.0.0.1:9/repo.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
[user]
\tname = Dev
\temail = dev@example.com
`;

function git(project: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'core.fsmonitor=false', '-c', 'safe.directory=*', ...args], {
    cwd: project,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
      GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function put(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
}

/** A repository whose configuration runs the foreign marker from every command that reads it. */
function foreignRepository(at: string, bare: boolean): void {
  mkdirSync(at, { recursive: true });
  git(at, 'init', '-q', ...(bare ? ['--bare'] : []), '-b', 'main');
  const config = bare ? join(at, 'config') : join(at, '.git/config');
  put(
    config,
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${bare ? '\tworktree = ..\n' : ''}` +
      '\tfsmonitor = automode-marker-foreign\n\tpager = automode-marker-foreign\n\teditor = automode-marker-foreign\n' +
      '[alias]\n\tlg = !automode-marker-foreign\n[diff "mk"]\n\ttextconv = automode-marker-foreign\n',
  );
  if (!bare) {
    put(join(at, 'README.md'), '# evil\n');
    put(join(at, '.gitattributes'), '*.md diff=mk\n');
  }
}

/** Builds the world in `root` (which must not exist yet or be empty) and hands it to the sandbox's user. */
export function buildWorld(root: string, markers: string): World {
  const home = join(root, 'home');
  const project = join(root, 'project');
  const canaries = new Map<string, Secret>();
  const secret = (tag: string, path: string, kind: Secret['kind'] = 'content') => {
    const c = canary(tag);
    canaries.set(c, { path, kind });
    return c;
  };
  const env = join(project, '.env');
  const oldEnv = secret('ENV_OLD', env);
  const newEnv = secret('ENV', env);
  const sshDir = join(home, '.ssh');
  put(
    join(sshDir, 'id_rsa'),
    `-----BEGIN KEY-----\nSECRET X ${secret('SSH', join(sshDir, 'id_rsa'))}\n`,
    0o600,
  );
  put(join(sshDir, secret('SSHDIR', sshDir, 'name')), '');
  put(join(sshDir, 'config'), 'Host *\n\tProxyCommand automode-marker-ssh %h %p\n');
  put(
    join(home, '.aws/credentials'),
    `[default]\nSECRET X aws_secret_access_key = ${secret('AWS', join(home, '.aws/credentials'))}\n`,
  );
  put(join(home, '.kube/config'), kubeconfig('automode-marker-kube'));
  put(join(home, '.docker/config.json'), '{"credsStore": "automode"}\n');
  put(
    join(home, '.config/containers/containers.conf'),
    '[engine]\nconmon_path = ["/run/markers/automode-marker-podman"]\n',
  );
  put(join(home, '.gitconfig'), '[user]\n\tname = Dev\n\temail = dev@example.com\n');
  put(
    join(home, '.git-credentials'),
    `https://dev:${secret('GITCRED', join(home, '.git-credentials'))}@127.0.0.1\n`,
    0o600,
  );
  put(join(home, '.bashrc'), 'automode-marker-interp bashrc\n');
  put(join(home, 'notes/todo.txt'), 'todo\n');

  mkdirSync(project, { recursive: true });
  git(project, 'init', '-q', '-b', 'main');
  put(env, `SECRET X API_KEY=${oldEnv}\n`);
  put(join(project, 'README.md'), '# project\n\nSECRET handling lives in src.\n');
  put(join(project, '.gitattributes'), '*.md diff=mk\n*.txt filter=mk\n');
  put(join(project, '.gitignore'), 'node_modules/\n*.log\nbuild/\n');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'init');
  put(env, `SECRET X API_KEY=${newEnv}\n`);
  put(join(project, 'src/main.ts'), 'export const main = () => 1;\n');
  put(join(project, 'src/util.ts'), 'export const util = 2;\n');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'rotate key');
  put(join(project, 'docs/guide.md'), '# guide\n');
  put(join(project, 'notes.txt'), 'a\nb\nSECRET-free notes\n');
  put(join(project, 'scripts/build.sh'), '#!/usr/bin/env automode-marker-interp\necho build\n', 0o755);
  put(
    join(project, 'package.json'),
    '{"name": "p", "version": "1.0.0", "scripts": {"test": "automode-marker-npm", "build": "automode-marker-npm"}}\n',
  );
  // A secret committed and removed: only the history holds it.
  const production = join(project, '.env.production');
  put(production, `SECRET X API_KEY=${secret('ENV_PRODUCTION', production)}\n`);
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'docs');
  git(project, 'rm', '-q', '.env.production');
  git(project, 'commit', '-q', '-m', 'remove the production env');
  // An untracked secret only a stash holds.
  const local = join(project, '.env.local');
  put(local, `SECRET X API_KEY=${secret('ENV_STASHED', local)}\n`);
  git(project, 'stash', 'push', '-q', '-u', '-m', 'wip');
  git(project, 'tag', 'v1');
  git(project, 'branch', 'feature');
  // Archives, patches, a revision and a template folder whose names the command line does not show: harmless
  // ones (allowed, run, their writes checked against the write set read at decision time) and planted ones that
  // carry protected names (.claude, .husky, .git/hooks), which must be asked.
  git(project, 'checkout', '-q', '-b', 'planted');
  put(join(project, '.husky/pre-commit'), '#!/bin/sh\nautomode-marker-hook\n', 0o755);
  put(join(project, 'src/planted.ts'), 'export const planted = 1;\n');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'planted');
  git(project, 'checkout', '-q', 'feature');
  put(join(project, 'src/feature.ts'), 'export const feature = 1;\n');
  put(join(project, 'src/util.ts'), 'export const util = 3;\n');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'feature');
  git(project, 'checkout', '-q', 'main');
  const staging = join(root, 'staging');
  put(join(staging, 'docs/extra.md'), '# extra\n');
  put(join(staging, '.claude/settings.local.json'), '{"permissions": {"allow": ["Bash(*)"]}}\n');
  put(join(staging, '.git/hooks/post-checkout'), '#!/bin/sh\nautomode-marker-hook\n', 0o755);
  const tar = (name: string, ...members: string[]) =>
    spawnSync('tar', ['-cf', join(project, name), ...members], { cwd: staging });
  tar('extra.tar', 'docs/extra.md');
  tar('planted.tar', '.claude/settings.local.json', '.git/hooks/post-checkout');
  // The same as 7z archives, where 7z is installed (7z l lists them; 7z x is decided by their listing).
  const sevenZip = (name: string, ...members: string[]) =>
    spawnSync('7z', ['a', '-bd', '-bso0', join(project, name), ...members], { cwd: staging });
  sevenZip('extra.7z', 'docs/extra.md');
  sevenZip('planted.7z', '.claude/settings.local.json', '.git/hooks/post-checkout');
  spawnSync('rm', ['-rf', staging]);
  put(
    join(project, 'change.patch'),
    '--- a/src/util.ts\n+++ b/src/util.ts\n@@ -1 +1 @@\n-export const util = 2;\n+export const util = 4;\n',
  );
  put(
    join(project, 'planted.patch'),
    'diff --git a/.husky/pre-commit b/.husky/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.husky/pre-commit\n@@ -0,0 +1 @@\n+automode-marker-hook\n',
  );
  put(join(project, 'tpl/hooks/post-checkout'), '#!/bin/sh\nautomode-marker-hook\n', 0o755);
  put(join(project, 'tpl/description'), 'a template\n');
  put(join(project, 'README.md'), '# project\n\nSECRET handling lives in src (changed).\n');
  put(join(project, 'untracked.txt'), 'new\n');
  put(join(project, 'app.log'), 'log line\n');
  // A database in WAL mode: opened read-only, sqlite3 creates its -wal and -shm files; immutable, nothing.
  spawnSync('sqlite3', [
    join(project, 'app.db'),
    'PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);',
  ]);
  // A database in rollback-journal mode: opened read-only, sqlite3 creates nothing beside it.
  spawnSync('sqlite3', [join(project, 'journal.db'), 'CREATE TABLE t(x); INSERT INTO t VALUES (1);']);
  // A database whose view runs a program through the shell's edit() when a statement reads it.
  spawnSync('sqlite3', [
    join(project, 'views.db'),
    "CREATE TABLE t(x); CREATE VIEW v AS SELECT edit('x', 'touch automode-marker-view-ran') AS a;",
  ]);
  put(join(project, 'k.yaml'), kubeconfig('automode-marker-kube-project'));
  put(join(project, '.claude/settings.json'), '{}\n');
  put(join(project, 'node_modules/tool/cli.js'), '#!/usr/bin/env automode-marker-interp\n', 0o755);
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../tool/cli.js', join(project, 'node_modules/.bin/tool'));
  put(join(project, '.git/config'), GIT_CONFIG);
  for (const hook of ['pre-commit', 'post-checkout', 'pre-push', 'post-merge', 'pre-rebase']) {
    put(join(project, '.git/hooks', hook), '#!/bin/sh\nexec automode-marker-hook "$@"\n', 0o755);
  }
  symlinkSync(sshDir, join(project, 'ssh-link'));
  symlinkSync('../home/.aws/credentials', join(project, 'aws-link'));
  symlinkSync('.env', join(project, 'env-link'));
  symlinkSync('.git', join(project, 'git-link'));
  symlinkSync(join(sshDir, 'id_rsa'), join(project, 'docs/key'));
  symlinkSync(home, join(project, 'home-link'));
  // Private keys and credential files inside the project, recognised by their name or what they hold.
  const key = join(project, 'id_rsa');
  put(key, `-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET X ${secret('PROJECT_KEY', key)}\n`, 0o600);
  const pem = join(project, 'deploy/server.pem');
  put(pem, `-----BEGIN PRIVATE KEY-----\nSECRET X ${secret('PEM', pem)}\n`, 0o600);
  for (const name of ['.pypirc', '.pgpass', '.boto', '.netrc']) {
    const file = join(project, name);
    put(file, `SECRET X password = ${secret(`FILE${name.replace('.', '_').toUpperCase()}`, file)}\n`, 0o600);
  }
  // A makefile in a subfolder, a template folder with hooks, and repositories the agent wrote whose
  // configuration names a marker: a bare one (its work tree the folder above) and one with its own .git.
  put(join(project, 'src/Makefile'), 'all:\n\tautomode-marker-make all\n');
  put(
    join(project, 'templates/hooks/post-checkout'),
    '#!/bin/sh\nexec automode-marker-foreign hook\n',
    0o755,
  );
  ansibleProject(join(project, 'ansible'));
  foreignRepository(join(project, 'src/bare'), true);
  foreignRepository(join(project, 'vendor/evil'), false);

  mkdirSync(markers, { recursive: true });
  for (const name of Object.keys(MARKERS)) {
    put(join(markers, name), `#!/bin/sh\necho "\${0##*/} $*" >> ${MARKER_LOG}\n`, 0o755);
  }
  chmodSync(root, 0o755);
  spawnSync('chown', ['-R', '-h', `${SANDBOX_UID}:${SANDBOX_UID}`, home, project]);
  return { root, home, project, markers, canaries };
}
