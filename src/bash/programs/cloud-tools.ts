import { grammar } from './options.js';
import type { ProgramSpec, SubcommandSpec } from './program.js';

/** Cobra commands (kubectl, helm, gh) read exact long names, anywhere on the line. */
const ANY = grammar({ long: 'help', abbreviate: false });

function commands(names: string): Record<string, SubcommandSpec> {
  const subcommands: Record<string, SubcommandSpec> = {};
  for (const name of names.split(' ')) subcommands[name] = { grammar: ANY };
  return subcommands;
}

export const HELM_SPEC: ProgramSpec = {
  name: 'helm',
  grammar: grammar({
    flags: 'h',
    values: 'n',
    long:
      'burst-limit= debug kube-apiserver= kube-as-group= kube-as-user= kube-ca-file= kube-context= ' +
      'kube-insecure-skip-tls-verify kube-tls-server-name= kube-token= kubeconfig= namespace=/n qps= ' +
      'registry-config= repository-cache= repository-config= help/h',
    abbreviate: false,
  }),
  subcommands: commands(
    'completion create dependency env get help history install lint list package plugin pull push registry ' +
      'repo rollback search show status template test uninstall upgrade verify version',
  ),
  subcommandAliases: {
    del: 'uninstall',
    delete: 'uninstall',
    un: 'uninstall',
    ls: 'list',
    dep: 'dependency',
  },
};

export const CLOUD_TOOL_SPECS: readonly ProgramSpec[] = [
  HELM_SPEC,
  {
    name: 'terraform',
    grammar: grammar({ words: '-chdir= -help -version', abbreviate: false }),
    subcommands: {},
  },
  { name: 'gh', grammar: grammar({ values: 'R', long: 'repo=/R help', abbreviate: false }), subcommands: {} },
  {
    name: 'aws',
    grammar: grammar({
      long: 'profile= region= output= endpoint-url= no-cli-pager debug no-verify-ssl no-paginate query= color=',
      abbreviate: false,
    }),
    subcommands: {},
  },
  {
    name: 'gcloud',
    grammar: grammar({
      flags: 'qh',
      long: 'project= account= quiet/q configuration= format= verbosity= log-http help/h',
      abbreviate: false,
    }),
    subcommands: {},
  },
];
