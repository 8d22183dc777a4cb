import { familySpec } from '../bash/index.js';
import type { CommandViews } from './bash-match.js';

/**
 * Options that send the credentials a program holds to a server the command line names, or stop it checking
 * who it talks to: `kubectl --server`, `aws --endpoint-url`, `helm --kube-apiserver`. An allow rule whose
 * wildcard stands for one never vouches for it, whatever the spelling (`--server=x`, `--server x`, `-s x`, `-sx`,
 * an abbreviation): the rule approved reading the user's own services, not handing their tokens elsewhere.
 */
const REDIRECTS: Readonly<Record<string, { long: readonly string[]; short: string }>> = {
  kubectl: {
    long: [
      'server',
      'insecure-skip-tls-verify',
      'token',
      'username',
      'password',
      'certificate-authority',
      'tls-server-name',
      'kubeconfig',
    ],
    short: 's',
  },
  helm: {
    long: [
      'kube-apiserver',
      'kube-token',
      'kube-insecure-skip-tls-verify',
      'kube-ca-file',
      'kube-tls-server-name',
      'kubeconfig',
    ],
    short: '',
  },
  docker: { long: ['host', 'tlsverify', 'tlscacert'], short: 'H' },
  podman: { long: ['url', 'connection', 'identity'], short: 'c' },
  aws: { long: ['endpoint-url', 'no-verify-ssl', 'ca-bundle'], short: '' },
  gcloud: { long: ['access-token-file', 'impersonate-service-account'], short: '' },
  gh: { long: ['hostname'], short: '' },
  az: { long: ['subscription-id-url'], short: '' },
};

/** The index of the first word that is such an option, or undefined. */
export function credentialRedirect(v: CommandViews): number | undefined {
  const table = Object.hasOwn(REDIRECTS, v.program) ? REDIRECTS[v.program] : undefined;
  if (!table) return undefined;
  for (let i = 1; i < v.values.length; i++) {
    const word = v.values[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const name = word.slice(2).split('=')[0]!;
      // A prefix may be read as the whole name (getopt_long, argparse): fail closed on any prefix of three or more.
      if (name.length >= 3 && table.long.some((option) => option.startsWith(name))) return i;
      continue;
    }
    if (table.short && /^-[^-]/.test(word) && clusterHas(word, table.short, v.program)) return i;
  }
  return undefined;
}

/** Whether a cluster of short options (`-As`, `-sx`) holds `letter` before any option that takes the rest as its value. */
function clusterHas(word: string, letter: string, program: string): boolean {
  const values = familySpec(program)?.grammar.values ?? '';
  for (const c of word.slice(1)) {
    if (c === letter) return true;
    if (c === '=' || values.includes(c)) return false;
  }
  return false;
}
