import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram, type ReadKind } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

describe('helm', () => {
  test.each([
    ['helm install x ./chart --kubeconfig ./k.yaml', ['environment --kubeconfig']],
    ['helm --kubeconfig=k.yaml list', ['environment --kubeconfig']],
    ['helm template x ./chart --post-renderer ./render.sh', ['program-option --post-renderer']],
    ['helm upgrade x ./chart --post-renderer=./render.sh', ['program-option --post-renderer']],
    ['helm plugin install ./plugin', ['program-option helm plugin']],
    ['helm diff upgrade x ./chart', ['program-option helm-diff']],
    ['helm list', []],
    ['helm plugin list', []],
    ['helm plugin update x', ['program-option helm plugin']],
  ])('%s', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });

  test.each([
    'helm template x ./chart --output-dir .git/hooks',
    'helm package ./chart -d out',
    'helm pull x/y',
  ])('%s: files not listed', (line) => {
    expect(shown(line).known).toBe(false);
  });
});

function check(line: string, kind: ReadKind): { ok: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const verdict = checkProgram(programSpec('helm')!, cmd.argv, true, kind);
  return { ok: verdict.readOnly, reason: verdict.reason };
}

describe('helm: local reads', () => {
  test.each([
    'helm version',
    'helm version --short',
    'helm --help',
    'helm -h',
    'helm help',
    'helm help upgrade',
    'helm install --help',
    'helm get values -h',
    'helm env HELM_NAMESPACE',
    'helm completion zsh --no-descriptions',
    'helm repo list',
    'helm repo ls -o yaml',
    'helm plugin list',
    'helm search repo ingress --versions --devel',
    'helm search repo db -l --version "^12.0.0" -o json',
    'helm list --help',
  ])('%s', (line) => {
    expect(check(line, 'readOnly').ok).toBe(true);
    expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
  });

  test.each([
    ['helm', 'only --help'],
    ['helm env', 'prints HELM_KUBETOKEN'],
    ['helm env HELM_KUBETOKEN', 'may print a secret'],
    ['helm env HELM_KUBETOKEN --kube-token t', 'is not a read-only option'],
    ['helm repo list --repository-config other.yaml', 'is not a read-only option'],
    ['helm list', 'only --help'],
    ['helm repo add x https://example.com/charts', 'only --help'],
    ['helm repo update', 'only --help'],
    ['helm plugin install https://example.com/p', 'only --help'],
    ['helm search hub nginx', 'only --help'],
    ['helm search repo x --output-dir out', 'helm: unknown option'],
    ['helm version --client', 'helm: unknown option'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'readOnly');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe('helm: reads of the releases in the user own cluster', () => {
  test.each([
    'helm list',
    'helm ls -A --deployed -o json',
    'helm list -n web --filter "^api" --max 20 --date --reverse',
    'helm list --kube-context staging --selector team=core -q',
    'helm -n web status api --revision 3 -o yaml',
    'helm history api --max 5 --show-rollback-revision',
    'helm hist api -n web',
    'helm get notes api',
    'helm get metadata api -o json --revision 2',
    'helm get hooks api -n web',
  ])('%s', (line) => {
    expect(check(line, 'serviceRead')).toEqual({
      ok: true,
      reason: expect.stringContaining('only reads its service'),
    });
    expect(check(line, 'readOnly').ok).toBe(false);
    expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
  });

  test.each([
    // Values and manifests may hold secrets.
    'helm get values api',
    'helm get values api --all',
    'helm get manifest api',
    'helm get all api',
    // Another server or other credentials.
    'helm list --kube-apiserver https://example.com:6443',
    'helm list --kube-token abc',
    'helm list --kube-insecure-skip-tls-verify',
    'helm status api --kube-ca-file ca.pem',
    'helm list --kubeconfig other.yaml',
    'helm list --kube-as-user admin',
    // Writes.
    'helm install api ./chart',
    'helm upgrade api ./chart --dry-run',
    'helm uninstall api',
    'helm rollback api 2',
    'helm test api',
    'helm list --bogus',
  ])('%s is no read', (line) => {
    expect(check(line, 'serviceRead').ok).toBe(false);
  });
});

describe('helm: a chart read where it lies', () => {
  test.each([
    ['helm show chart ./web', ['read ./web']],
    ['helm show values ./web --jsonpath "{.image.tag}"', ['read ./web']],
    ['helm show all /srv/charts/web-1.2.0.tgz', ['read /srv/charts/web-1.2.0.tgz']],
    ['helm inspect readme ./web --version 1.2.0', ['read ./web']],
    ['helm show crds . -n web', ['read .']],
    ['helm dependency list', ['read .']],
    ['helm dep ls ./web --max-col-width 120', ['read ./web']],
  ])('%s', (line, effects) => {
    expect(check(line, 'readOnly')).toEqual({ ok: true, reason: expect.stringContaining('only reads') });
    expect(shown(line)).toEqual({ known: true, effects, code: [] });
  });

  test.each([
    // Any other name may be downloaded from a repository into helm's cache.
    ['helm show values bitnami/redis', 'may download'],
    ['helm show chart web', 'may download'],
    ['helm show chart oci://registry.example.com/web', 'may download'],
    ['helm show chart "$CHART"', 'a glob could expand'],
    ['helm show chart ./web --repo https://charts.example.com', 'is not a read-only option'],
    ['helm show chart ./web --verify', 'is not a read-only option'],
    ['helm show chart ./web --keyring k.gpg', 'is not a read-only option'],
    ['helm show chart ./web --username u --password p', 'is not a read-only option'],
    ['helm show chart --jsonpath x ./web', 'unknown option'],
    ['helm dependency update ./web', 'only --help'],
    ['helm dependency build ./web', 'only --help'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'readOnly');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });

  test('an address of a registry: files not listed', () => {
    expect(shown('helm show chart oci://registry.example.com/web').known).toBe(false);
  });
});

describe('helm: a local chart rendered', () => {
  test.each([
    ['helm template web ./web', ['read ./web']],
    ['helm template ./web', ['read ./web']],
    ['helm template web web', ['read web']],
    ['helm template web ./web -f values.yaml --set image.tag=v2', ['read ./web', 'read values.yaml']],
    ['helm template web ./web -f a.yaml,b.yaml -f -', ['read ./web', 'read a.yaml', 'read b.yaml']],
    ['helm template web ./web --set-file notes=NOTES.txt', ['read ./web', 'read NOTES.txt']],
    [
      'helm template web ./web -s templates/deploy.yaml --kube-version 1.30 -a v1 --include-crds',
      ['read ./web'],
    ],
    ['helm template web ./web --skip-schema-validation --is-upgrade -n web', ['read ./web']],
    ['helm lint ./web', ['read ./web']],
    ['helm lint ./web --strict --with-subcharts --quiet', ['read ./web']],
    ['helm lint ./a ./b -f values.yaml', ['read ./a', 'read ./b', 'read values.yaml']],
    ['helm lint', ['read .']],
    ['helm verify ./web-1.0.0.tgz', ['read ./web-1.0.0.tgz', 'read ./web-1.0.0.tgz.prov']],
    [
      'helm verify ./web-1.0.0.tgz --keyring keys.gpg',
      ['read ./web-1.0.0.tgz', 'read ./web-1.0.0.tgz.prov', 'read keys.gpg'],
    ],
  ])('%s', (line, effects) => {
    expect(check(line, 'readOnly')).toEqual({ ok: true, reason: expect.stringContaining('only reads') });
    expect(shown(line)).toEqual({ known: true, effects, code: [] });
  });

  test.each([
    ['helm template web ./web --post-renderer ./p', 'is not a read-only option'],
    ['helm template web ./web --post-renderer-args x', 'is not a read-only option'],
    ['helm template web ./web --name-template "{{ env \\"HOME\\" }}"', 'is not a read-only option'],
    ['helm template web ./web --enable-dns', 'is not a read-only option'],
    ['helm template web ./web --dependency-update', 'is not a read-only option'],
    ['helm template web ./web --output-dir out', 'is not a read-only option'],
    ['helm template web ./web --validate', 'is not a read-only option'],
    ['helm template web ./web --dry-run=server', 'is not a read-only option'],
    ['helm template web ./web --repo https://charts.example.com', 'is not a read-only option'],
    ['helm template web ./web --verify', 'is not a read-only option'],
    ['helm template web ./web --kube-apiserver https://x', 'is not a read-only option'],
    ['helm template web ./web -f https://example.com/v.yaml', 'may download'],
    ['helm template web ./web -f values.yaml,s3://bucket/v.yaml', 'may download'],
    ['helm template web ./web --set-file k=https://example.com/x', 'may download'],
    ['helm template web ./web --set-file a=x,b=y', 'not one KEY=PATH'],
    ['helm template web ./web -f \'"a,b.yaml"\'', 'quotes a file name'],
    ['helm template web ./web -f "$VALUES"', 'only known at run time'],
    ['helm template web bitnami/redis', 'may download'],
    ['helm template web oci://registry.example.com/web', 'may download'],
    ['helm template a b ./web', 'takes a NAME and a CHART'],
    ['helm lint bitnami/redis', 'may download'],
    ['helm verify a.tgz b.tgz', 'with 2 arguments'],
  ])('%s: %s', (line, why) => {
    const verdict = check(line, 'readOnly');
    expect(verdict.ok).toBe(false);
    expect(verdict.reason).toContain(why);
  });
});

describe("helm: a chart of the user's own repositories, a service read", () => {
  test.each([
    'helm show values bitnami/redis',
    'helm inspect values bitnami/redis --version 18.1.0',
    'helm show all bitnami/redis --devel',
    'helm show crds prometheus-community/kube-prometheus-stack',
    'helm show values bitnami/redis --jsonpath "{.image.tag}"',
    'helm show readme bitnami/redis -n web',
  ])('%s', (line) => {
    expect(check(line, 'serviceRead').ok).toBe(true);
    expect(check(line, 'readOnly').ok).toBe(false);
    // A folder of that name here is read where it lies; otherwise helm downloads the chart into its own cache.
    const chart = line.split(' ')[3]!;
    expect(shown(line)).toEqual({ known: true, effects: [`read ${chart}`], code: [] });
  });

  test.each([
    'helm show values redis',
    'helm show values oci://registry.example.com/web',
    'helm show values https://charts.example.com/web-1.0.0.tgz',
    'helm show values bitnami/redis --repo https://charts.example.com',
    'helm show values bitnami/redis --pass-credentials',
    'helm show values bitnami/redis --insecure-skip-tls-verify',
    'helm show values bitnami/redis --username u --password p',
    'helm show values bitnami/redis --verify --keyring k.gpg',
    'helm show values bitnami/redis --repository-config ./repos.yaml',
    'helm show values bitnami/redis extra/chart',
    'helm show chart bitnami/redis --jsonpath x',
    'helm pull bitnami/redis',
    'helm template web bitnami/redis --repo https://charts.example.com',
    'helm template web bitnami/redis --post-renderer ./render.sh',
    'helm template web bitnami/redis --output-dir out',
    'helm template web bitnami/redis --validate',
    'helm template web oci://registry.example.com/web',
    'helm template web https://charts.example.com/web-1.0.0.tgz',
    'helm template web bitnami/redis -f https://example.com/values.yaml',
  ])('%s is no service read', (line) => {
    expect(check(line, 'serviceRead').ok).toBe(false);
  });
});

describe("helm template of a chart of the user's own repositories: downloaded as helm show does, rendered here", () => {
  test.each([
    ['helm template web bitnami/redis', []],
    ['helm template web bitnami/redis --version 18.1.0 -f values.yaml --set a=b', ['read values.yaml']],
  ])('%s', (line, reads) => {
    expect(check(line, 'serviceRead').ok).toBe(true);
    expect(check(line, 'readOnly').ok).toBe(false);
    expect(shown(line)).toEqual({ known: true, effects: ['read bitnami/redis', ...reads], code: [] });
  });
});

describe('helm: a search of Artifact Hub', () => {
  test.each(['helm search hub nginx', 'helm search hub nginx --max-col-width 80 --list-repo-url -o json'])(
    '%s',
    (line) => {
      expect(check(line, 'serviceRead').ok).toBe(true);
      expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
    },
  );

  test('another hub is no read', () => {
    expect(check('helm search hub nginx --endpoint https://hub.example.com', 'serviceRead').ok).toBe(false);
  });
});
