import { inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import {
  AWS_CLI_VERSION,
  AWS_GLOBAL_OPTIONS,
  AWS_READ_OPERATIONS,
} from '../../../src/bash/programs/aws/operations.js';
import { checkProgram, type ReadKind } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string, kind: ReadKind) {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec('aws')!, cmd.argv, true, kind);
}

const localRead = (line: string) => verdict(line, 'readOnly').readOnly;

describe('aws service reads', () => {
  test.each([
    'aws ec2 describe-vpcs --region eu-west-1 --output table',
    'aws --profile staging --region us-east-2 ec2 describe-subnets --filters Name=vpc-id,Values=vpc-0a1',
    'aws ec2 describe-instances --filters Name=instance-state-name,Values=running --query "Reservations[].Instances[].InstanceId"',
    'aws ec2 describe-instances --instance-ids i-0aa i-0bb --no-paginate',
    // argparse: a unique prefix names the option (`--instance-id` is `--instance-ids`).
    'aws ec2 describe-instances --instance-id i-0aa',
    'aws ec2 describe-instances --dry-run',
    'aws --no-cli-pager ec2 describe-instances',
    // aws-cli v2's logs tail, without --follow.
    'aws logs tail /aws/lambda/api --since 1h --format short --filter-pattern ERROR',
    'aws s3 ls',
    'aws s3 ls s3://build-artifacts/2026/ --recursive --human-readable --summarize',
    'aws s3api list-objects-v2 --bucket build-artifacts --prefix logs/ --max-items 50',
    'aws s3api head-object --bucket build-artifacts --key logs/a.txt',
    'aws iam list-roles --max-items 20 --output json',
    'aws iam get-role --role-name deploy',
    'aws sts get-caller-identity --query Account --output text',
    'aws ecs list-clusters',
    'aws ecs describe-services --cluster web --services api worker',
    'aws eks describe-cluster --name prod',
    'aws cloudformation describe-stacks --stack-name web --no-paginate',
    'aws cloudformation describe-stack-events --stack-name web --max-items 10',
    'aws dynamodb describe-table --table-name orders',
    // RDS never returns the master password: a pending change of it shows only that one is pending.
    'aws rds describe-db-instances --db-instance-identifier app --query "DBInstances[].Endpoint"',
    'aws rds describe-db-clusters',
    'aws dynamodb query --table-name orders --key-condition-expression \'pk = :p\' --expression-attribute-values \'{":p":{"S":"42"}}\'',
    'aws dynamodb scan --table-name orders --select COUNT',
    'aws logs describe-log-groups --log-group-name-prefix /aws/lambda/',
    'aws logs filter-log-events --log-group-name /aws/lambda/api --filter-pattern ERROR --start-time 1700000000000',
    'aws cloudwatch get-metric-data --metric-data-queries \'[{"Id":"m","MetricStat":{"Metric":{"Namespace":"AWS/EC2","MetricName":"CPUUtilization"},"Period":300,"Stat":"Average"}}]\' --start-time 2026-01-01 --end-time 2026-01-02',
    'aws ssm get-parameter --name /app/feature-flag',
    'aws ssm get-parameters-by-path --path /app --recursive',
    'aws ssm describe-parameters',
    'aws secretsmanager list-secrets',
    'aws secretsmanager describe-secret --secret-id db',
    // sqs does not fetch a queue URL (the CLI's paramfile exceptions).
    'aws sqs get-queue-attributes --queue-url https://sqs.us-east-1.amazonaws.com/1/jobs --attribute-names All',
    'aws route53 list-resource-record-sets --hosted-zone-id Z1',
    'aws ec2 describe-instances --generate-cli-skeleton output',
    'aws configure list',
    'aws configure list-profiles',
    'aws configure get region',
    'aws configure get profile.dev.role_arn',
  ])('%s', (line) => {
    expect(verdict(line, 'serviceRead')).toMatchObject({ readOnly: true });
  });

  test.each([
    // Not reads: writes, jobs, calls that change what others see.
    ['aws ec2 terminate-instances --instance-ids i-0aa', /not a known read-only subcommand/],
    ['aws ec2 create-tags --resources i-0aa --tags Key=a,Value=b', /not a known/],
    ['aws s3 cp s3://b/k ./k', /not a known/],
    ['aws s3 sync s3://b ./local', /not a known/],
    ['aws s3 rm s3://b/k', /not a known/],
    ['aws s3api get-object --bucket b --key k out.bin', /not a known/],
    ['aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/1/jobs', /not a known/],
    ['aws athena start-query-execution --query-string "SELECT 1"', /not a known/],
    ['aws logs start-query --log-group-name g --start-time 0 --end-time 1 --query-string x', /not a known/],
    ['aws lambda invoke --function-name f out.json', /not a known/],
    ['aws cloudformation detect-stack-drift --stack-name web', /not a known/],
    // Secrets and credentials printed.
    ['aws secretsmanager get-secret-value --secret-id db', /not a known/],
    ['aws secretsmanager batch-get-secret-value --secret-id-list db', /not a known/],
    ['aws ssm get-parameter --name /app/db --with-decryption', /--with-decryption/],
    ['aws ssm get-parameter --name /app/db --with-d', /unknown option --with-d/],
    ['aws ssm get-parameters --names a b --with-decryption', /--with-decryption/],
    ['aws ssm get-parameters-by-path --path /app --with-decryption', /--with-decryption/],
    ['aws ecr get-login-password', /not a known/],
    ['aws ecr get-authorization-token', /not a known/],
    ['aws sts get-session-token', /not a known/],
    ['aws sts assume-role --role-arn arn:aws:iam::1:role/r --role-session-name s', /not a known/],
    ['aws cognito-identity get-credentials-for-identity --identity-id x', /not a known/],
    ['aws cognito-identity get-open-id-token --identity-id x', /not a known/],
    ['aws ec2 get-password-data --instance-id i-0aa', /not a known/],
    ['aws codeartifact get-authorization-token --domain d', /not a known/],
    ['aws eks get-token --cluster-name prod', /not a known/],
    ['aws sso get-role-credentials --role-name r --account-id 1 --access-token t', /not a known/],
    ['aws rds generate-db-auth-token --hostname h --port 5432 --username u', /not a known/],
    ['aws s3 presign s3://b/k', /not a known/],
    ['aws kms decrypt --ciphertext-blob fileb://c.bin', /not a known/],
    ['aws redshift get-cluster-credentials --db-user u --cluster-identifier c', /not a known/],
    ['aws redshift get-identity-center-auth-token --workgroup-names w', /not a known/],
    ['aws rds describe-option-groups', /not a known/],
    // Secrets botocore does not mark: by the answer's member names (a token, credentials) or the operation's name
    // (a presigned or login URL).
    ['aws athena get-session-endpoint --session-id s', /not a known/],
    ['aws lakeformation get-temporary-glue-table-credentials --table-arn arn:t', /not a known/],
    ['aws kinesis-video-signaling get-ice-server-config --channel-arn arn:c', /not a known/],
    ['aws amplify get-artifact-url --artifact-id a', /not a known/],
    ['aws emr get-persistent-app-ui-presigned-url --persistent-app-ui-id p', /not a known/],
    // botocore marks it read-only, but it revokes viewer sessions.
    ['aws ivs batch-start-viewer-session-revocation --viewer-sessions x', /not a known/],
    // botocore marks the output sensitive: Lambda environment variables, a user pool client's secret.
    ['aws lambda list-functions', /not a known/],
    ['aws lambda get-function-configuration --function-name f', /not a known/],
    ['aws cognito-idp describe-user-pool-client --user-pool-id p --client-id c', /not a known/],
    // A presigned URL to the code stands for the credentials.
    ['aws lambda get-function --function-name f', /not a known/],
    ['aws logs filter-log-events --log-group-name g --unmask', /--unmask/],
    ['aws logs tail /aws/lambda/api --follow', /unknown option --follow/],
    ['aws apigateway get-api-keys --include-values', /--include-values/],
    // The request or its credentials go elsewhere.
    ['aws --endpoint-url http://127.0.0.1:4566 s3 ls', /--endpoint-url sends the signed request elsewhere/],
    ['aws s3 ls --endpoint-url=http://127.0.0.1:4566', /--endpoint-url/],
    ['aws s3 ls --endpoint http://127.0.0.1:4566', /--endpoint-url/],
    ['aws ec2 describe-instances --no-verify-ssl', /--no-verify-ssl/],
    ['aws ec2 describe-instances --ca-bundle ./ca.pem', /--ca-bundle/],
    ['aws --debug sts get-caller-identity', /--debug/],
    // Values the CLI loads from files or URLs.
    ['aws ec2 describe-instances --filters https://example.com/f.json', /loads/],
    // awscli's paramfile expands `~` and variables in a file's path: not the file the words name.
    ['aws dynamodb get-item --table-name t --key file://~/.ssh/id_rsa', /loads/],
    ["aws dynamodb get-item --table-name t --key 'file://$HOME/k.json'", /loads/],
    ['aws dynamodb get-item --table-name t --key file://', /loads/],
    ['aws ec2 describe-instances --cli-input-json \'{"DryRun": false}\'', /--cli-input-json/],
    ['aws ec2 describe-instances --instance-ids "$ID"', /run time/],
    // Unknown words.
    ['aws ec2 describe-instances --bogus x', /unknown option/],
    ['aws nosuchservice list-things', /not a known/],
    ['aws ec2', /without a subcommand/],
    ['aws', /without a subcommand/],
    ['aws s3api get-object-torrent --bucket b --key k t.torrent', /not a known/],
    ['aws configure get aws_secret_access_key', /can print a secret/],
    ['aws configure get profile.dev.aws_session_token', /can print a secret/],
    ['aws configure set region us-east-1', /not a known/],
    ['aws configure export-credentials', /not a known/],
  ])('%s: not a service read', (line, reason) => {
    const found = verdict(line, 'serviceRead');
    expect(found.readOnly).toBe(false);
    expect(found.reason).toMatch(reason);
  });
});

describe('aws without the service-read profile', () => {
  test.each(['aws help', 'aws ec2 help', 'aws ec2 describe-instances help', 'aws configure help'])(
    '%s: prints the manual',
    (line) => {
      expect(localRead(line)).toBe(true);
      expect(shown(line)).toMatchObject({ known: true, effects: [] });
    },
  );

  test.each([
    'aws s3 ls',
    'aws ec2 describe-instances',
    'aws sts get-caller-identity',
    'aws configure list',
    'aws ec2 describe-instances help --region us-east-1',
    'aws ec2 describe-instances help me',
  ])('%s: not a local read', (line) => {
    expect(localRead(line)).toBe(false);
  });

  test.each([
    ['aws --endpoint-url http://x s3 ls', ['read ~/.aws/credentials']],
    ['aws s3 ls --endpoint=http://x', ['read ~/.aws/credentials']],
    ['aws ec2 describe-instances --no-verify', ['read ~/.aws/credentials']],
    // --debug logs each signed request's headers, the session token among them; argparse reads `--d` as it.
    ['aws --debug sts get-caller-identity', ['read ~/.aws/credentials']],
    ['aws sts get-caller-identity --d', ['read ~/.aws/credentials']],
  ])('%s: the credentials are read', (line, effects) => {
    expect(shown(line)).toMatchObject({ known: false, effects });
  });

  test.each([
    ['aws dynamodb get-item --table-name t --key file://key.json', ['read key.json']],
    ['aws dynamodb get-item --table-name t --key=fileb://key.bin', ['read key.bin']],
    ['aws dynamodb batch-get-item --request-items file://../items.json', ['read ../items.json']],
    ['aws ec2 describe-instances --instance-ids i-0aa file:///tmp/ids.txt', ['read /tmp/ids.txt']],
    ['aws cloudformation validate-template --template-body file://t.yaml', ['read t.yaml']],
  ])('%s: a service read of the file the value names', (line, effects) => {
    expect(verdict(line, 'serviceRead')).toMatchObject({ readOnly: true });
    expect(shown(line)).toMatchObject({ known: true, effects });
  });

  test('a service read touches no file of the user', () => {
    expect(shown('aws s3 ls s3://b')).toMatchObject({ known: true, effects: [] });
    expect(shown('aws s3 cp s3://b/k k').known).toBe(false);
  });
});

describe('the committed table', () => {
  const table = inflateSync(Buffer.from(AWS_READ_OPERATIONS, 'base64')).toString('utf8');

  test('every service line names its read operations', () => {
    const lines = table.split('\n');
    expect(lines.length).toBeGreaterThan(300);
    const ec2 = lines.find((line) => line.startsWith('ec2\t'))!;
    expect(
      ec2
        .split('\t')[1]!
        .split(';')
        .map((entry) => entry.split(' ')[0]),
    ).toContain('describe-instances');
    expect(table).not.toMatch(/(^|;|\t)(get-secret-value|get-session-token|get-login-password) /m);
    expect(table).not.toMatch(/cli-input-json/);
  });

  // The installed aws-cli is the oracle: `npm run oracle` runs test/bash/oracle/aws-table.mjs, which gives the
  // committed table from the CLI's own command tables through the generator.
  test('names the aws-cli it was generated from', () => {
    expect(AWS_CLI_VERSION).toMatch(/^aws-cli\/1\.\d+\.\d+ botocore\/1\.\d+\.\d+$/);
    expect(AWS_GLOBAL_OPTIONS).toMatch(/(^| )endpoint-url( |$)/);
  });
});
