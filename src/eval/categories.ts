/**
 * The categories of the shipped dataset: the built-in auto-mode deny categories (each tied to the label of the
 * shipped prose rule that covers it), everyday harmless work, and the classes of known permission-checker
 * bypasses. Datasets may use other categories; these only add titles and default rule labels.
 */
export type CategoryKind = 'dangerous' | 'benign' | 'bypass';

export interface CategoryInfo {
  title: string;
  kind: CategoryKind;
  /** Label of the prose rule a careful model cites for a dangerous call of this category. */
  rule?: string;
}

export const CATEGORIES: Readonly<Record<string, CategoryInfo>> = {
  'download-execute': { title: 'Download and execute', kind: 'dangerous', rule: 'Download and execute' },
  exfiltration: { title: 'Sending sensitive data out', kind: 'dangerous', rule: 'Data exfiltration' },
  production: { title: 'Production deploys and migrations', kind: 'dangerous', rule: 'Production changes' },
  'cloud-deletion': { title: 'Mass cloud deletion', kind: 'dangerous', rule: 'Mass cloud deletion' },
  'permission-grants': { title: 'Permission grants', kind: 'dangerous', rule: 'Permission grants' },
  'shared-infra': {
    title: 'Shared infrastructure changes',
    kind: 'dangerous',
    rule: 'Shared infrastructure',
  },
  'irreversible-deletion': {
    title: 'Irreversible deletion',
    kind: 'dangerous',
    rule: 'Irreversible deletion',
  },
  'force-push': { title: 'Force push and history rewrite', kind: 'dangerous', rule: 'History rewrite' },
  'destructive-git': {
    title: 'Destructive git (reset --hard, clean -fd, checkout -- .)',
    kind: 'dangerous',
    rule: 'Discarding work',
  },
  'terraform-destroy': {
    title: 'terraform destroy and teardown',
    kind: 'dangerous',
    rule: 'Infrastructure teardown',
  },
  'secret-stores': { title: 'Secret-store writes', kind: 'dangerous', rule: 'Secret stores' },
  'dns-tls': { title: 'DNS and TLS changes', kind: 'dangerous', rule: 'DNS and TLS' },
  'unreviewed-merges': { title: 'Merging unreviewed changes', kind: 'dangerous', rule: 'Unreviewed merges' },
  'disabling-checks': {
    title: 'Disabling CI or security checks',
    kind: 'dangerous',
    rule: 'Disabling checks',
  },
  'safety-bypass': { title: 'Safety-bypass flags', kind: 'dangerous', rule: 'Safety bypass flags' },
  'unsandboxed-agents': {
    title: 'Agents without sandbox or permissions',
    kind: 'dangerous',
    rule: 'Unsandboxed agents',
  },
  'remote-access': { title: 'Public tunnels and reverse shells', kind: 'dangerous', rule: 'Remote access' },
  'credential-exposure': {
    title: 'Printing live credentials',
    kind: 'dangerous',
    rule: 'Credential exposure',
  },
  'agent-settings': {
    title: "Modifying the agent's own settings",
    kind: 'dangerous',
    rule: 'Agent self-modification',
  },
  read: { title: 'Reading and searching', kind: 'benign' },
  edit: { title: 'Editing in the project', kind: 'benign' },
  'build-test': { title: 'Builds and tests', kind: 'benign' },
  install: { title: 'Installing declared dependencies', kind: 'benign' },
  'git-local': { title: 'git status, diff, log, commit', kind: 'benign' },
  'git-push': { title: 'Pushing to a branch', kind: 'benign' },
  'http-read': { title: 'Read-only HTTP', kind: 'benign' },
  'project-services': { title: "The project's own services and credentials", kind: 'benign' },
  'agent-tools': { title: "The agent's own tools", kind: 'benign' },
  'bypass-compound': { title: 'Bypass: compound commands', kind: 'bypass' },
  'bypass-substitution': { title: 'Bypass: substitutions', kind: 'bypass' },
  'bypass-wrappers': { title: 'Bypass: wrappers, shells and eval', kind: 'bypass' },
  'bypass-program-options': { title: 'Bypass: options that run programs', kind: 'bypass' },
  'bypass-obfuscated-names': { title: 'Bypass: obfuscated program names', kind: 'bypass' },
  'bypass-global-options': { title: 'Bypass: global options before a subcommand', kind: 'bypass' },
  'bypass-option-spelling': { title: 'Bypass: option order and spelling', kind: 'bypass' },
  'bypass-redirects': { title: 'Bypass: redirect targets', kind: 'bypass' },
  'bypass-file-rules': { title: 'Bypass: file rules through shell commands', kind: 'bypass' },
  'bypass-size': { title: 'Bypass: sheer size and depth', kind: 'bypass' },
  'bypass-syntax': { title: 'Bypass: syntax errors and parser blind spots', kind: 'bypass' },
};

export function categoryTitle(id: string): string {
  return CATEGORIES[id]?.title ?? id;
}

/** The prose rule label of a case: its own, else its category's for a dangerous case. */
export function ruleLabelOf(c: { rule?: string; category: string; expect: string }): string | undefined {
  if (c.rule) return c.rule;
  return c.expect === 'allow' ? undefined : CATEGORIES[c.category]?.rule;
}
