#!/usr/bin/env python3
"""Writes the aws CLI's read operations, as automode's aws module reads them, from the installed aws-cli.

The table is drawn from the CLI's own command tables (botocore's service models with the CLI's customizations:
renamed and removed arguments, the `--no-` twins of booleans, pagination arguments), so that the options listed
are the ones this aws-cli parses. Usage:

  python3 scripts/aws-commands.py                 # writes src/bash/programs/aws/operations.ts
  python3 scripts/aws-commands.py --json          # prints the table as JSON
  python3 scripts/aws-commands.py --text          # prints the version, the global options and the table as the
                                                  # module holds them (the test compares it with the module)

Which operations are reads is decided here, by these rules (each kept in the module's documentation too):
- the name's verb reads: describe-, list-, get-, head-, batch-get-, search-, lookup- (AWS names its reads so), or
  botocore marks the operation `readonly` and its verb does not start, stop, execute or export something;
- never an operation whose output carries a member botocore marks sensitive (secrets, tokens, passwords, PII) or
  one whose name says it holds a secret (SECRET_MEMBERS: tokens, passwords, keys, credentials, presigned URLs),
  one named in SECRETS or by SECRET_OPERATIONS (its output is a credential or a URL that stands for one, or the
  call makes one), one that writes a local file (streaming output), nor a customization the CLI adds that is
  not in CUSTOM_READS;
- options dropped from a read: --cli-input-json (its JSON may set any parameter, those dropped included), the
  ones named in DROPPED (they make the call print a secret), and any that the CLI's main parser would read as one of
  its own options (an exact name or a prefix of one: `--endpoint` is `--endpoint-url` to argparse).
"""
import base64
import json
import os
import re
import sys
import zlib

import awscli
import botocore

from awscli.clidriver import ServiceOperation, create_clidriver
from awscli.paramfile import PARAMFILE_DISABLED

READ_VERBS = re.compile(r'^(describe|list|get|head|batch-get|search|lookup)-')
NOT_READ_VERBS = re.compile(r'^(batch-)?(start|stop|execute|export)-')
EXTRA_READS = {
    'dynamodb': {'query', 'scan'},
    'route53': {'test-dns-answer'},
    'iam': {'simulate-principal-policy', 'simulate-custom-policy'},
    'cloudformation': {'validate-template', 'estimate-template-cost'},
    'logs': {'filter-log-events'},
    'rds': {'download-db-log-file-portion'},
}
# CLI customizations that only read: command path -> positional arguments it takes (the rest are options).
CUSTOM_READS = {
    ('s3', 'ls'): ['paths'],
    ('logs', 'tail'): ['group_name'],
}
SECRETS = {
    'cognito-identity': {'get-id', 'get-credentials-for-identity', 'get-open-id-token',
                         'get-open-id-token-for-developer-identity'},
    'sts': {'get-session-token', 'get-federation-token', 'get-web-identity-token'},
    'ecr': {'get-authorization-token', 'get-login-password', 'get-login', 'get-download-url-for-layer'},
    'ecr-public': {'get-authorization-token', 'get-login-password'},
    'codeartifact': {'get-authorization-token', 'login'},
    'eks': {'get-token'},
    'ec2': {'get-password-data'},
    'sso': {'get-role-credentials'},
    'redshift': {'get-cluster-credentials', 'get-cluster-credentials-with-iam'},
    'redshift-serverless': {'get-credentials'},
    'secretsmanager': {'get-secret-value', 'batch-get-secret-value', 'get-random-password'},
    'lightsail': {'get-instance-access-details', 'get-relational-database-master-user-password',
                  'get-bucket-access-keys', 'get-container-api-metadata'},
    'lambda': {'get-function', 'get-layer-version', 'get-layer-version-by-arn'},
    'glue': {'get-connection', 'get-connections'},
    'appsync': {'list-api-keys'},
    'ssm': {'get-deployable-patch-snapshot-for-instance'},
    'rds': {'generate-db-auth-token'},
    's3': {'presign'},
}
# Operations whose name says the answer is a credential or a URL that stands for one (signed, presigned, a login
# or session URL, a decrypted value, a token).
SECRET_OPERATIONS = re.compile(
    r'(presigned|signed|login|session-url|artifacts?-url|authentication-url|upload-url|download-url|decrypt|'
    r'-token$|credentials)'
)
# Options that make a read print a secret: the decrypted value of a SecureString parameter, an API key's value,
# the log data a data protection policy masks.
DROPPED = {
    'logs': {'unmask'},
    'ssm': {'with-decryption'},
    'apigateway': {'include-value', 'include-values'},
}
ALWAYS_DROPPED = {'cli-input-json'}
# Output members that carry a secret by their name, whether or not botocore marks them: presigned URLs (they stand
# for the credentials that signed them), tokens, passwords, keys, credentials. A flag or a count of one is no secret;
# idempotency and paging tokens do not match.
SECRET_MEMBERS = re.compile(
    r'(presigned|signedurl|authtoken|accesstoken|sessiontoken|refreshtoken|idtoken|secretaccesskey|secretkey|'
    r'password|passphrase|clientsecret|privatekey|^credentials?$|^token$|tokenvalue|^apikey$)',
    re.I,
)
# Shapes botocore marks sensitive that name a key rather than hold one: the ARN of the KMS key an S3 object is
# encrypted with (head-object, the reads of object metadata).
NAMES_NOT_SECRETS = {'s3api': {'SSEKMSKeyId'}}
# Members botocore marks sensitive that the service never fills with the secret: RDS and Redshift operations never
# return the master password (their ModifyDBInstance/ModifyCluster reference); the pending one only says a change
# of it is pending. Listed by (structure, member), the same shape elsewhere still counts.
NEVER_RETURNED = {
    'rds': {('PendingModifiedValues', 'MasterUserPassword'), ('ClusterPendingModifiedValues', 'MasterUserPassword'),
            ('TenantDatabasePendingModifiedValues', 'MasterUserPassword')},
    'redshift': {('PendingModifiedValues', 'MasterUserPassword')},
}
# Reads whose output botocore marks sensitive only through an option DROPPED removes: a SecureString parameter's
# value comes back encrypted without --with-decryption (a String parameter is not a secret by its type).
SENSITIVE_UNLESS_DROPPED = {
    'ssm': {'get-parameter', 'get-parameters', 'get-parameters-by-path', 'get-parameter-history'},
}


def globals_of(driver):
    table = driver._get_argument_table()
    out = {}
    for name, arg in table.items():
        out[name] = arg.cli_type_name == 'boolean' or name == 'version'
    return out


def sensitive(shape, seen, service, place=None):
    """Whether the shape holds a member botocore marks sensitive; `place` is (structure, member) it is found at."""
    if shape is None or place in NEVER_RETURNED.get(service, ()):
        return False
    # By the member's name first: shapes are shared (`String`), so a shape seen elsewhere may hold a secret here.
    if place and SECRET_MEMBERS.search(place[1]) and shape.type_name in ('string', 'blob', 'structure', 'map'):
        return True
    if shape.name in seen:
        return False
    seen.add(shape.name)
    if shape.metadata.get('sensitive') and shape.name not in NAMES_NOT_SECRETS.get(service, ()):
        return True
    kids = []
    if shape.type_name == 'structure':
        kids = [(kid, (shape.name, name)) for name, kid in shape.members.items()]
    elif shape.type_name == 'list':
        kids = [(shape.member, place)]
    elif shape.type_name == 'map':
        kids = [(shape.key, place), (shape.value, place)]
    return any(sensitive(kid, seen, service, where) for kid, where in kids)


def options_of(arg_table, service, operation, global_names):
    """Flags and value options; a value option whose value the CLI takes as it is (no file:// or URL loaded) is
    marked `~`."""
    flags, values = [], []
    for name, arg in arg_table.items():
        if name in ALWAYS_DROPPED or name in DROPPED.get(service, ()):
            continue
        if getattr(arg, 'positional_arg', False):
            continue
        if any(g.startswith(name) for g in global_names):
            continue
        if arg.cli_type_name == 'boolean' or getattr(arg, '_action', None) in ('store_true', 'store_false'):
            flags.append(name)
        elif f'{service}.{operation}.{name}' in PARAMFILE_DISABLED or getattr(arg, 'no_paramfile', False):
            values.append(name + '~')
        else:
            values.append(name)
    return flags, values


def read_operation(service, name, op):
    if name in SECRETS.get(service, ()) or SECRET_OPERATIONS.search(name):
        return False
    if not isinstance(op, ServiceOperation):
        return (service, name) in CUSTOM_READS
    if any(getattr(arg, 'positional_arg', False) for arg in op.arg_table.values()):
        return False
    model = op._operation_model
    if model.has_streaming_output or any(type(arg).__name__ == 'StreamingOutputArgument' for arg in op.arg_table.values()):
        return False
    if sensitive(model.output_shape, set(), service) and name not in SENSITIVE_UNLESS_DROPPED.get(service, ()):
        return False
    if name in EXTRA_READS.get(service, ()):
        return True
    if READ_VERBS.match(name):
        return True
    return bool(model._operation_model.get('readonly')) and not NOT_READ_VERBS.match(name)


def build():
    driver = create_clidriver()
    global_options = globals_of(driver)
    services = {}
    for service, command in sorted(driver._get_command_table().items()):
        table = command._get_command_table() if hasattr(command, '_get_command_table') else command.subcommand_table
        ops = {}
        for name, op in sorted(table.items()):
            if not read_operation(service, name, op):
                continue
            flags, values = options_of(op.arg_table, service, name, global_options)
            ops[name] = {'flags': flags, 'values': values}
        services[service] = ops
    return {
        'version': f'aws-cli/{awscli.__version__} botocore/{botocore.__version__}',
        'globals': global_options,
        'services': services,
    }


PAGING = ['starting-token', 'page-size', 'max-items']
SKELETON = 'generate-cli-skeleton'


def encode(data):
    """One line a service, `service<TAB>op option ...;op ...`: `name!` a flag, `name~` a value taken as it is,
    `+` the three paging options, `@` --generate-cli-skeleton."""
    lines = []
    for service, ops in data['services'].items():
        entries = []
        for name, spec in ops.items():
            words = [name]
            values = list(spec['values'])
            if all(p in values for p in PAGING):
                values = [v for v in values if v not in PAGING]
                words.append('+')
            if SKELETON in values:
                values.remove(SKELETON)
                words.append('@')
            words += [f + '!' for f in spec['flags']] + values
            entries.append(' '.join(words))
        lines.append(service + '\t' + ';'.join(entries))
    return '\n'.join(lines)


def global_line(data):
    return ' '.join(name + ('!' if flag else '') for name, flag in data['globals'].items())


def write_module(data, path):
    text = encode(data).encode('utf-8')
    packed = base64.b64encode(zlib.compress(text, 9)).decode('ascii')
    globals_ = global_line(data)
    chunks = [packed[i : i + 100] for i in range(0, len(packed), 100)]
    with open(path, 'w') as out:
        out.write(f"// Generated by scripts/aws-commands.py from {data['version']}: do not edit.\n")
        out.write('// The aws CLI\'s read operations and their options, deflated (see scripts/aws-commands.py).\n\n')
        out.write(f"export const AWS_CLI_VERSION = '{data['version']}';\n\n")
        out.write(f"export const AWS_GLOBAL_OPTIONS =\n  '{globals_}';\n\n")
        out.write('export const AWS_READ_OPERATIONS =\n')
        out.write('\n'.join(f"  '{c}' +" for c in chunks[:-1]) + f"\n  '{chunks[-1]}';\n")
    return len(text), len(packed)


if __name__ == '__main__':
    data = build()
    if '--json' in sys.argv:
        json.dump(data, sys.stdout, indent=1, sort_keys=True)
        sys.exit(0)
    if '--text' in sys.argv:
        print(data['version'])
        print(global_line(data))
        print(encode(data))
        sys.exit(0)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    plain, packed = write_module(data, os.path.join(root, 'src/bash/programs/aws/operations.ts'))
    print(f"{data['version']}: {plain} characters, {packed} in the module", file=sys.stderr)
