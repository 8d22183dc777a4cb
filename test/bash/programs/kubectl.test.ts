import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { KUBECTL_SPEC } from '../../../src/bash/programs/kubectl/spec.js';
import type { SubcommandSpec } from '../../../src/bash/programs/program.js';
import { optionLines, shown } from './support.js';

beforeAll(loadBash);

describe('kubectl: files it reads and writes', () => {
  test.each([
    ['kubectl get pods --kubeconfig=./k.yaml', ['read ./k.yaml']],
    ['kubectl --kubeconfig k.yaml get pods', ['read k.yaml']],
    [
      'kubectl get pods --profile=cpu --profile-output=.git/hooks/pre-commit',
      ['write .git/hooks/pre-commit'],
    ],
    ['kubectl get pods --profile=heap', ['write profile.pprof']],
    ['kubectl get pods --profile-output=p.out', ['write p.out']],
    ['kubectl get pods --cache-dir=.git/hooks', ['write .git/hooks']],
    ['kubectl get pods --client-key=key.pem', ['read key.pem']],
    ['kubectl get pods -o go-template-file=.env', ['read .env']],
    ['kubectl get pods -o=jsonpath-file=.env', ['read .env']],
    ['kubectl get pods -ocustom-columns-file=cols', ['read cols']],
    ['kubectl get pods -o go-template-file --template=.env', ['read .env']],
    ['kubectl get pods -o go-template --template={{.x}}', []],
    ['kubectl get pods -o jsonpath={.items}', []],
    ['kubectl apply -f .env', ['read .env']],
    ['kubectl apply -f https://example.com/x.yaml', []],
    ['kubectl apply -f -', []],
    ['kubectl get -f . -R', ['read .']],
    ['kubectl apply -k overlays/dev', ['read overlays/dev']],
    ['kubectl create secret generic s --from-file=.env', ['read .env']],
    ['kubectl create configmap c --from-file=key=.env --from-env-file=e.env', ['read .env', 'read e.env']],
    ['kubectl create cm c --from-file=.env', ['read .env']],
    ['kubectl create secret tls t --cert=c.pem --key=k.pem', ['read c.pem', 'read k.pem']],
    ['kubectl patch deploy x --patch-file=p.yaml', ['read p.yaml']],
    ['kubectl cp pod:/etc/passwd .git/hooks/pre-commit', ['write .git/hooks/pre-commit']],
    ['kubectl cp . pod:/tmp', ['read .']],
    ['kubectl cp ns/pod:/a b -c main', ['write b']],
    ['kubectl kustomize . -o .git/hooks/pre-commit', ['write .git/hooks/pre-commit', 'read .']],
    ['kubectl cluster-info dump --output-directory=dump', ['write dump']],
    ['kubectl proxy --www=.', ['read .']],
    ['kubectl config view --raw', ['read ~/.kube/config']],
    ['kubectl config set-credentials u --exec-command=./x', ['write ~/.kube/config']],
    ['kubectl --kubeconfig=k.yaml config use-context x', ['read k.yaml', 'write k.yaml']],
    ['kubectl config use x', ['write ~/.kube/config']],
    ['kubectl get pods', []],
    ['kubectl get pods -n kube-system -o wide --show-labels=false', []],
    ['kubectl logs -f pod -c x', []],
    ['kubectl top pods', []],
    ['kubectl version --client', []],
    ['kubectl debug pod --profile=general -it --image=busybox', []],
    ['kubectl --help', []],
  ])('%s', (line, effects) => {
    expect(shown(line)).toMatchObject({ known: true, effects });
  });

  test.each([
    'kubectl get pods --zz-unknown',
    'kubectl foo',
    'kubectl create foo x',
    'kubectl kustomize . --enable-alpha-plugins',
    'kubectl kustomize . --load-restrictor=LoadRestrictionsNone',
    'kubectl get pods -o "$fmt"',
  ])('%s: files not all known', (line) => {
    expect(shown(line).known).toBe(false);
  });
});

describe('kubectl: code it runs', () => {
  test.each([
    ['kubectl get pods --kubeconfig=./k.yaml', ['environment --kubeconfig']],
    ['kubectl --kubeconfig k.yaml get pods', ['environment --kubeconfig']],
    ['KUBECONFIG=./k.yaml kubectl get pods', ['environment KUBECONFIG']],
    ['kubectl foo bar', ['program-option kubectl-foo']],
    ['kubectl create foo x', ['program-option kubectl-create-foo']],
    // Plugins extend kubectl and kubectl create only: kubectl top foo is an error, it runs nothing.
    ['kubectl top foo', []],
    ['kubectl config foo', []],
    ['kubectl exec pod -- ls /', ['program-option kubectl exec']],
    ['kubectl exec -it pod -- sh', ['program-option kubectl exec']],
    ['kubectl port-forward pod 8080:80', ['program-option kubectl port-forward']],
    ['kubectl edit deploy x', ['environment kubectl edit']],
    ['kubectl kustomize . --enable-helm', ['program-option kubectl kustomize']],
    ['kubectl get pods', []],
    ['kubectl cp pod:/a b', []],
  ])('%s', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });

  test('the command run in a pod is the words after --', () => {
    expect(analyze('kubectl exec -it pod -- ls /').commands[0]!.executes[0]!.code).toBe('ls /');
  });
});

/** Options whose value names a local file or folder, and what kubectl does with it. */
const FILE_OPTIONS: Record<string, string> = {
  '--kubeconfig': 'read',
  '--certificate-authority': 'read',
  '--client-certificate': 'read',
  '--client-key': 'read',
  '--cache-dir': 'write',
  '--profile-output': 'write',
  f: 'read',
  k: 'read',
  '--from-file': 'read',
  '--from-env-file': 'read',
  '--patch-file': 'read',
  '--custom': 'read',
  '--output-directory': 'write',
  'create secret tls --cert': 'read',
  'create secret tls --key': 'read',
  'proxy w': 'read',
  'proxy u': 'write',
  'kustomize o': 'write',
};

describe('kubectl: every option of every command', () => {
  const lines = optionLines('kubectl', KUBECTL_SPEC, false);
  test('the spec lists every command and option kubectl has', () => {
    expect(lines.length).toBeGreaterThan(2500);
  });
  test.each(lines.map((entry) => [entry.line, entry]))('%s', (_, { line, path, option }) => {
    const result = shown(line);
    const onValue = result.effects.filter((e) => e.endsWith(' v.txt')).map((e) => e.split(' ')[0]);
    const generic = ['w', 'u', 'o'].includes(option) ? undefined : FILE_OPTIONS[option];
    const expected = line.includes('=v.txt') ? (FILE_OPTIONS[`${path} ${option}`] ?? generic) : undefined;
    if (expected) expect(onValue).toContain(expected);
    else expect(onValue).toEqual([]);
  });
});

describe('kubectl: the real client', () => {
  const kubectl = spawnSync('kubectl', ['version', '--client']).status === 0;
  test.runIf(kubectl)('runs the exec credential plugin a kubeconfig names, and the analysis says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'automode-kubectl-'));
    const marker = join(dir, 'ran');
    const plugin = join(dir, 'plugin.sh');
    writeFileSync(
      plugin,
      `#!/bin/sh\ntouch '${marker}'\necho '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}}'\n`,
    );
    chmodSync(plugin, 0o755);
    writeFileSync(
      join(dir, 'k.yaml'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        `users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: "${plugin}", interactiveMode: Never}}}]`,
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
      ].join('\n'),
    );
    spawnSync('kubectl', ['get', 'pods', '--kubeconfig=./k.yaml', '--request-timeout=2s'], {
      cwd: dir,
      timeout: 30_000,
    });
    expect(existsSync(marker)).toBe(true);
    expect(shown('kubectl get pods --kubeconfig=./k.yaml').code).toEqual(['environment --kubeconfig']);
  });

  test.runIf(kubectl)(
    'writes the profile it is asked for, even when the command fails: a write declared',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'automode-kubectl-'));
      const args = ['get', 'pods', '-s', 'http://127.0.0.1:1', '--request-timeout=1s'];
      spawnSync('kubectl', [...args, '--profile=cpu', '--profile-output=p.out'], {
        cwd: dir,
        timeout: 30_000,
      });
      spawnSync('kubectl', [...args, '--profile-output=none.out'], { cwd: dir, timeout: 30_000 });
      expect(existsSync(join(dir, 'p.out'))).toBe(true);
      // A heap profile is written when the command ends well; a CPU profile's file is created at the start.
      spawnSync('kubectl', ['version', '--client', '--profile=heap'], { cwd: dir, timeout: 30_000 });
      expect(existsSync(join(dir, 'profile.pprof'))).toBe(true);
      expect(shown('kubectl get pods --profile=cpu --profile-output=p.out').effects).toEqual(['write p.out']);
      expect(shown('kubectl get pods --profile=heap').effects).toEqual(['write profile.pprof']);
      // Without --profile nothing is written; the write is declared all the same.
      expect(existsSync(join(dir, 'none.out'))).toBe(false);
      expect(shown('kubectl get pods --profile-output=none.out').effects).toEqual(['write none.out']);
    },
  );
});

describe("kubectl: the spec against each command's own --help", () => {
  const kubectl = spawnSync('kubectl', ['version', '--client']).status === 0;
  const paths: { path: string; spec: SubcommandSpec }[] = [];
  const walk = (spec: SubcommandSpec, path: string[]) => {
    paths.push({ path: path.join(' '), spec });
    for (const [name, sub] of Object.entries(spec.subcommands ?? {})) walk(sub, [...path, name]);
  };
  walk(KUBECTL_SPEC, []);
  const global = spawnSync('kubectl', ['options'], { encoding: 'utf8' }).stdout ?? '';
  const options = (text: string) => {
    const listed = new Map<string, boolean>();
    for (const line of text.split('\n')) {
      const entry = /^\s{4}(?:-\w, )?--([\w.-]+)=(.*):$/.exec(line);
      if (entry) listed.set(entry[1]!, !['true', 'false'].includes(entry[2]!));
    }
    return listed;
  };
  test.runIf(kubectl).each(paths.map((entry) => [entry.path || '(kubectl)', entry.spec]))(
    'kubectl %s',
    (path, spec) => {
      const words = path === '(kubectl)' ? [] : path.split(' ');
      const help = spawnSync('kubectl', [...words, '--help'], { encoding: 'utf8', timeout: 20_000 }).stdout;
      const listed = new Map([...options(global), ...options(help)]);
      const own = new Map(
        [...spec.grammar.long]
          .filter(([name]) => name !== 'help')
          .map(([name, o]) => [name, o.arity === 'value']),
      );
      expect(Object.fromEntries(own)).toEqual(Object.fromEntries(listed));
    },
  );
});
