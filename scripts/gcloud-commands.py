"""Writes src/bash/programs/gcloud/commands.ts from the Google Cloud SDK's own command tree.

The SDK ships its whole command tree with every command's flags (data/cli/gcloud_completions.py, the tree its
static shell completion reads). This keeps the commands that only read the user's own project and the flags
that only select or filter what is read. Usage: python3 scripts/gcloud-commands.py [SDK_ROOT] > FILE
"""

import json
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '/usr/lib/google-cloud-sdk'
sys.path.insert(0, f'{root}/data/cli')
import gcloud_completions  # noqa: E402

version = open(f'{root}/VERSION').read().strip()
tree = gcloud_completions.STATIC_COMPLETION_CLI_TREE
GLOBAL = set(tree['flags'])

# Leaf verbs that only read: every `list`/`describe`/`get-iam-policy`, and the named `list-*`/`get-*` reads.
READ = re.compile(
    r'^(list|describe|get-iam-policy'
    r'|list-(tags|grantable-roles|testable-permissions|instances|usable|subscriptions|spokes|revisions|nodes'
    r'|disks|memberships|routes|rules|network-endpoints|errors|bgp-routes|route-policies|topics|configs|ips'
    r'|cleanup-policies|packages|upgrades|workloads|references|overrides|available-features|host-projects'
    r'|associated-resources|vulnerabilities|gcr-usage|custom-constraints)'
    r'|get-(health|status|server-config|ancestors|ancestors-iam-policy|upgrade-info|named-ports'
    r'|effective-firewalls|public-key|ca-certs|certificate-chain|effective-iam-policy|history|host-project'
    r'|guest-attributes|operational-status|nat-ip-info|locations|latest-recovery-time|default-service-account))$'
)
# Commands that print a secret (client secrets, passwords, workload secrets, API keys' values) or whose output
# holds its configuration's proxy password, however their verb reads.
SECRET = re.compile(
    r'\bcredentials\b|user-workloads-secrets|\bapigee apps\b|authorization-code|auth-string|key-string'
    r'|^config configurations describe$'
)
# Flags that read a file, carry a token, a key or a header, or change where the request goes.
FLAG = re.compile(r'file|token|header|password|credential|decryption-key|private-key|endpoint|impersonate')
MORE = {
    'auth list': None,
    'config list': None,
    'config get': None,
    'config get-value': None,
    'config configurations list': None,
    'components list': None,
    'info': None,
    'version': None,
    'help': None,
    'iap settings get': None,
    'access-approval requests get': None,
    'access-approval settings get': None,
    'access-approval service-account get': None,
    'app logs read': None,
    'functions logs read': None,
    'logging read': None,
    'run jobs logs read': None,
    'run services logs read': None,
}

out = {}


def walk(node, path):
    for name, child in sorted(node['commands'].items()):
        words = [*path, name]
        key = ' '.join(words)
        if child['commands']:
            walk(child, words)
            continue
        if words[0] in ('alpha', 'preview'):
            continue
        bare = ' '.join(words[1:]) if words[0] == 'beta' else key
        if SECRET.search(bare):
            continue
        if not (READ.match(name) or bare in MORE or words[0] == 'topic'):
            continue
        if bare == 'info':
            child = {'flags': {k: v for k, v in child['flags'].items() if k != '--show-log'}}
        flags = []
        for flag, kind in sorted(child['flags'].items()):
            if flag in GLOBAL or not flag.startswith('--') or FLAG.search(flag):
                continue
            flags.append(flag[2:] if kind == 'bool' else flag[2:] + '=')
        out[key] = ' '.join(flags)


walk(tree, [])
# A beta command with the flags of its GA command is the GA command's entry (the spec reads both under `beta`).
out = {k: v for k, v in out.items() if not (k.startswith('beta ') and out.get(k[5:]) == v)}
common = 'filter= limit= page-size= sort-by='
print('// Written by scripts/gcloud-commands.py from the Google Cloud SDK ' + version + "'s command tree: do not edit.")
print('/** What `list` commands share: filtering, paging and sorting. */')
print(f"const LIST = '{common}';")
print('')
print('/** Each command that only reads, with its own flags (`name` a flag, `name=` takes a value). */')
print('export const GCLOUD_COMMANDS: Readonly<Record<string, string>> = {')
for key, flags in out.items():
    text = flags
    if all(f in flags.split(' ') for f in common.split(' ')):
        rest = ' '.join(f for f in flags.split(' ') if f not in common.split(' '))
        text = '${LIST}' + (' ' + rest if rest else '')
        value = '`' + text + '`'
    else:
        value = json.dumps(text).replace('"', "'") if "'" not in text else json.dumps(text)
    k = json.dumps(key).replace('"', "'") if re.search(r'[^\w]', key) else key
    print(f'  {k}: {value},')
print('};')
