import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createClassifier } from '../../src/classifier/index.js';
import { STAGE1_TOOL } from '../../src/classifier/model-parts.js';
import {
  detectProjectEnvironment,
  displayRemote,
  gitRepository,
  kubeContexts,
} from '../../src/classifier/project-environment.js';
import { createModelClient } from '../../src/llm/client.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';

let root: string;
let server: MessagesServer | undefined;

const GIT_CONFIG = `[core]
\trepositoryformatversion = 0
[remote "origin"]
\turl = git@github.com:acme/widgets.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
[remote "upstream"]
\turl = https://user:secret-token@gitlab.example.com/team/widgets.git
[branch "main"]
\tremote = origin
`;

const KUBE_CONFIG = `apiVersion: v1
kind: Config
current-context: kind-dev
contexts:
- name: kind-dev
  context: { cluster: kind-dev, user: kind-dev }
- name: minikube
  context: { cluster: minikube, user: minikube }
- name: prod-eu
  context: { cluster: prod-eu, user: admin }
`;

/** A repository with remotes, a folder inside it, and a linked worktree of it elsewhere. */
function makeRepo(): { repo: string; sub: string; worktree: string } {
  const repo = join(root, 'widgets');
  mkdirSync(join(repo, '.git', 'worktrees', 'feature'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), GIT_CONFIG);
  writeFileSync(join(repo, '.git', 'worktrees', 'feature', 'commondir'), '../..\n');
  const sub = join(repo, 'packages', 'core');
  mkdirSync(sub, { recursive: true });
  const worktree = join(root, 'widgets-feature');
  mkdirSync(worktree, { recursive: true });
  writeFileSync(join(worktree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'feature')}\n`);
  return { repo, sub, worktree };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'automode-env-'));
  await loadBash();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('what automode sees of the project', () => {
  it('finds the repository and its remotes from a folder inside it and from a linked worktree', () => {
    const { repo, sub, worktree } = makeRepo();
    const remotes = [
      { name: 'origin', url: 'git@github.com:acme/widgets.git' },
      { name: 'upstream', url: 'https://user:secret-token@gitlab.example.com/team/widgets.git' },
    ];
    expect(gitRepository(sub)).toEqual({ root: repo, remotes });
    expect(gitRepository(worktree)).toEqual({ root: worktree, remotes });
    const outside = mkdtempSync(join(tmpdir(), 'automode-env-none-'));
    try {
      expect(gitRepository(outside)).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('shows remotes as host and path, without credentials', () => {
    expect(displayRemote('git@github.com:acme/widgets.git')).toBe('github.com/acme/widgets');
    expect(displayRemote('https://user:tok@gitlab.example.com/team/w.git')).toBe('gitlab.example.com/team/w');
    expect(displayRemote('ssh://git@host.example:2222/org/repo.git/')).toBe('host.example/org/repo');
    expect(displayRemote('/srv/git/repo.git')).toBe('/srv/git/repo');
  });

  it('lists only the local kubectl contexts, from ~/.kube/config or KUBECONFIG', () => {
    const home = join(root, 'home-kube');
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), KUBE_CONFIG);
    expect(kubeContexts(home, {})).toEqual({ current: 'kind-dev', local: ['kind-dev', 'minikube'] });
    const other = join(root, 'other-kube.yaml');
    writeFileSync(other, 'current-context: prod\ncontexts:\n- name: docker-desktop\n- name: prod\n');
    expect(kubeContexts(home, { KUBECONFIG: other })).toEqual({ current: 'prod', local: ['docker-desktop'] });
    expect(kubeContexts(join(root, 'nowhere'), {})).toEqual({ local: [] });
  });

  it('states the facts as environment entries; LocalStack only when something points at it', () => {
    const { sub } = makeRepo();
    const home = join(root, 'home-facts');
    mkdirSync(home, { recursive: true });
    const plain = detectProjectEnvironment(sub, { home, env: {} });
    expect(plain).toEqual([
      `Working folder: ${sub} (the folder the agent works in).`,
      `Git repository: ${join(root, 'widgets')} (the git repository that holds the working folder).`,
      "Trusted repository: github.com/acme/widgets (the working folder's git remote origin).",
      "Trusted repository: gitlab.example.com/team/widgets (the working folder's git remote upstream).",
      'Local services: localhost, 127.0.0.1 and ::1 are services on this machine, not remote systems.',
    ]);
    const withStack = detectProjectEnvironment(sub, {
      home,
      env: { AWS_ENDPOINT_URL: 'http://localhost:4566' },
    });
    expect(withStack.at(-1)).toMatch(/^LocalStack: /);
    writeFileSync(
      join(root, 'widgets', 'docker-compose.yml'),
      'services:\n  aws:\n    image: localstack/localstack\n',
    );
    expect(detectProjectEnvironment(sub, { home, env: {} }).at(-1)).toMatch(/^LocalStack: /);
  });

  it("puts the facts in the model's environment, after the configured entries, when asked to", async () => {
    const { sub } = makeRepo();
    const home = join(root, 'home-prompt');
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), KUBE_CONFIG);
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', '');
    const pass = reply.toolUse({ name: STAGE1_TOOL, input: { flag: false, rule: '' } });
    server = await startMessagesServer([pass, pass]);
    const settings = await loadSettings({ cwd: sub, home, managedPath: join(home, 'none.json'), env: {} });
    const model = createModelClient({
      apiKey: 'k',
      baseURL: server.url,
      env: {},
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const call = { tool: 'Bash', input: { command: 'npm install left-pad' }, mode: 'auto' as const };
    expect(
      (await createClassifier(settings, { model, projectEnvironment: true }).classify(call)).decision,
    ).toBe('allow');
    await createClassifier(settings, { model }).classify(call);
    const [withFacts, without] = server
      .messageRequests()
      .map((r) => (r.body!.system as { text: string }[])[0]!.text);
    expect(without).not.toContain('Working folder:');
    expect(without).toContain('- Workspace: ');
    const system = withFacts!;
    const environment = system.slice(system.indexOf('<environment>'), system.indexOf('</environment>'));
    expect(environment).toContain('- Workspace: ');
    expect(environment).toContain(
      "- Trusted repository: github.com/acme/widgets (the working folder's git remote origin).",
    );
    expect(environment).toContain(`- Working folder: ${sub} `);
    expect(environment).toContain(
      '- Local Kubernetes: the kubectl contexts kind-dev, minikube (current: kind-dev) are local clusters',
    );
    expect(environment).not.toContain('secret-token');
    expect(environment.indexOf('Workspace:')).toBeLessThan(environment.indexOf('Working folder:'));
  });

  it('tells a long-lived classifier the facts of now: another kubectl context, another remote, a FIFO left unread', async () => {
    const { sub, repo } = makeRepo();
    const home = join(root, 'home-refresh');
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), KUBE_CONFIG);
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', '');
    const pass = reply.toolUse({ name: STAGE1_TOOL, input: { flag: false, rule: '' } });
    server = await startMessagesServer([pass, pass, pass]);
    const settings = await loadSettings({ cwd: sub, home, managedPath: join(home, 'none.json'), env: {} });
    const model = createModelClient({
      apiKey: 'k',
      baseURL: server.url,
      env: {},
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const classifier = createClassifier(settings, { model, projectEnvironment: true });
    const call = (command: string) => ({ tool: 'Bash', input: { command }, cwd: sub, mode: 'auto' as const });
    await classifier.classify(call('npm install left-pad'));
    writeFileSync(
      join(home, '.kube', 'config'),
      KUBE_CONFIG.replace('current-context: kind-dev', 'current-context: minikube'),
    );
    writeFileSync(
      join(repo, '.git', 'config'),
      `${GIT_CONFIG}[remote "fork"]\n\turl = https://github.com/me/widgets.git\n`,
    );
    await classifier.classify(call('npm install right-pad'));
    // A compose file that is a FIFO is not read (the call does not hang), and the facts are told as before.
    execFileSync('mkfifo', [join(repo, 'compose.yaml')]);
    await classifier.classify(call('npm install up-pad'));
    const systems = server.messageRequests().map((r) => (r.body!.system as { text: string }[])[0]!.text);
    expect(systems).toHaveLength(3);
    expect(systems[0]).toContain('(current: kind-dev)');
    expect(systems[0]).not.toContain('github.com/me/widgets');
    expect(systems[1]).toContain('(current: minikube)');
    expect(systems[1]).toContain(
      "Trusted repository: github.com/me/widgets (the working folder's git remote fork).",
    );
    expect(systems[2]).toBe(systems[1]);
  });
});
