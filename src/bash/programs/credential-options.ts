/**
 * Options that send the credentials a program holds to a server the command line names, or stop it checking
 * who it talks to: `kubectl --server`, `aws --endpoint-url`, `helm --kube-apiserver`, or print them (`aws --debug`
 * logs every request's headers, the session token among them). An allow rule whose
 * wildcard stands for one never vouches for it, whatever the spelling (`--server=x`, `--server x`, `-s x`, `-sx`,
 * an abbreviation where the program reads one; cobra's pflag (`exact`) reads long options only whole): the rule approved reading the user's own services, not handing their tokens elsewhere.
 */
export const CREDENTIAL_REDIRECTS: Readonly<
  Record<
    string,
    {
      long: readonly string[];
      short: string;
      fileValues?: boolean;
      exact?: boolean;
      whole?: readonly string[];
    }
  >
> = {
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
    exact: true,
  },
  helm: {
    long: [
      'kube-apiserver',
      'kube-token',
      'kube-insecure-skip-tls-verify',
      'kube-ca-file',
      'kube-tls-server-name',
      'kubeconfig',
      // A chart's download: the repositories' stored credentials sent to every host, TLS unchecked, plain HTTP.
      'pass-credentials',
      'insecure-skip-tls-verify',
      'plain-http',
    ],
    short: '',
    exact: true,
  },
  docker: { long: ['host', 'tlsverify', 'tlscacert'], short: 'H', exact: true },
  podman: { long: ['url', 'connection', 'identity'], short: 'c', exact: true },
  aws: { long: ['endpoint-url', 'no-verify-ssl', 'ca-bundle', 'debug'], short: '' },
  // A file of more flags may hold any of them; --log-http prints every request with its authorisation.
  gcloud: {
    long: ['access-token-file', 'impersonate-service-account', 'flags-file', 'log-http'],
    short: '',
  },
  gh: { long: ['hostname'], short: '', exact: true },
  // Another server gets the password of PGPASSWORD or ~/.my.cnf; an option file may name any of these.
  psql: { long: ['host', 'port'], short: 'h' },
  mysql: {
    long: [
      'host',
      'port',
      'socket',
      'protocol',
      'defaults-file',
      'defaults-extra-file',
      'login-path',
      'init-command',
      'pager',
      'ssl-mode',
      'plugin-dir',
      'enable-cleartext-plugin',
    ],
    short: 'h',
  },
  // --debug logs every request and response; a value `@FILE` is the file's content (az reads it, sends it on).
  // `--subscription` is every command's own argument, which argparse reads whole before trying a prefix.
  az: { long: ['subscription-id-url', 'debug'], short: '', fileValues: true, whole: ['subscription'] },
};

/** A program's long options of `CREDENTIAL_REDIRECTS`, as its grammar names them (`--server`), and its short one. */
export function credentialOptionNames(program: string): string[] {
  const table = CREDENTIAL_REDIRECTS[program];
  if (!table) return [];
  return [...(table.short ? [table.short] : []), ...table.long.map((name) => `--${name}`)];
}
