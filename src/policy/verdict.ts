import type { Behavior, Rule, SourceName } from '../rules/index.js';

export type Decision = Behavior;

/** Strictness order: deny beats ask beats allow. */
const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

export function stricter(a: Decision, b: Decision): Decision {
  return RANK[a] >= RANK[b] ? a : b;
}

export function isStricter(a: Decision, b: Decision): boolean {
  return RANK[a] > RANK[b];
}

/** The rule behind a decision, with the place it was written. */
export interface RuleRef {
  text: string;
  behavior: Decision;
  source: SourceName | 'default';
  file?: string;
  index: number;
  pointer?: string;
  line?: number;
  column?: number;
  label?: string;
}

/** What settled a part: a rule, a built-in check, or the absence of either. */
export type DecidedBy =
  | 'rule'
  | 'read-only'
  | 'service-read'
  | 'wrapper'
  | 'protected-path'
  | 'critical-path'
  | 'opaque'
  | 'dynamic'
  | 'hidden-code'
  | 'unseen-code'
  | 'runaway'
  | 'unlisted-writes'
  | 'file'
  | 'mode'
  | 'no-rule'
  | 'no-model'
  | 'size'
  | 'settings-error'
  | 'model'
  | 'model-error';

interface Traits {
  /** A check that refused rather than found nothing: among equally strict parts it names the verdict before others without a rule. */
  failsClosed: boolean;
  /** An ask that no mode turns into an allow: the analysis failed, the target is never auto-approved, or deny rules could not be checked. */
  alwaysAsks: boolean;
  /** An ask only the model can settle: no rule decided it and nothing about it fails closed. */
  modelSettles: boolean;
  /** An ask that only means nobody decided: a hook's or the tool's allow may settle it. */
  allowSettles: boolean;
  /**
   * A soft ask in auto mode: the person has left the agent on its own, so instead of waiting for them the model
   * judges the part, with the reason attached (`hidden-code`: code automode cannot analyse but the model can be
   * shown, inline or by a file name: a script file, a Dockerfile, `sh -c` in a container, a package script).
   * `unseen-code` (code on stdin, in a variable, or in a repository configuration) stays hard. Other modes keep
   * the ask. The rule side is `isShippedAsk`.
   */
  autoSoft: boolean;
}

const no: Traits = {
  failsClosed: false,
  alwaysAsks: false,
  modelSettles: false,
  allowSettles: false,
  autoSoft: false,
};
const refused: Traits = { ...no, failsClosed: true, alwaysAsks: true };
const undecided: Traits = { ...no, modelSettles: true, allowSettles: true };

const TRAITS: Record<DecidedBy, Traits> = {
  rule: no,
  'read-only': no,
  /** A read of the user's own service, allowed by the program's `automode.readServices` entry. */
  'service-read': no,
  wrapper: no,
  'protected-path': refused,
  'critical-path': refused,
  opaque: refused,
  dynamic: refused,
  'hidden-code': { ...refused, autoSoft: true },
  'unseen-code': refused,
  /** Processes without end (a fork bomb, a loop starting background jobs): never settled without the person. */
  runaway: refused,
  /**
   * A write into a folder of entries whose names cannot be read before the command runs (content on a remote, an
   * archive past the bound, an option that renames): neither a hook's allow nor the sandbox settles it; in auto
   * mode the model weighs it (a protected folder written is a `protected-path` ask instead); a Bash rule naming
   * the command vouches for remote content, and bypassPermissions accepts it. Names that can be read are decided
   * one path at a time.
   */
  'unlisted-writes': { ...no, failsClosed: true, autoSoft: true },
  file: undecided,
  mode: no,
  'no-rule': undecided,
  'no-model': undecided,
  size: refused,
  'settings-error': refused,
  model: { ...no, failsClosed: true },
  'model-error': { ...no, failsClosed: true, allowSettles: true },
};

export function failsClosed(by: DecidedBy): boolean {
  return TRAITS[by].failsClosed;
}

export function alwaysAsks(by: DecidedBy): boolean {
  return TRAITS[by].alwaysAsks;
}

export function modelSettles(by: DecidedBy): boolean {
  return TRAITS[by].modelSettles;
}

export function allowSettles(by: DecidedBy): boolean {
  return TRAITS[by].allowSettles;
}

export function autoSoft(by: DecidedBy): boolean {
  return TRAITS[by].autoSoft;
}

/**
 * Whether a verdict asks only for reasons `settles` accepts: every asking part has such a reason and no rule
 * behind it (an ask rule, an opaque command, hidden code… is an answer, whichever part the verdict names).
 */
export function asksOnlyFor(v: Verdict, settles: (by: DecidedBy) => boolean): boolean {
  if (v.decision !== 'ask' || v.rule) return false;
  const asks = v.parts.filter((p) => p.decision === 'ask');
  if (asks.length === 0) return settles(v.by);
  return asks.every((p) => settles(p.by) && !p.rule);
}

/** A rule automode ships (its defaults), as opposed to one the user or the organisation wrote. */
export function isShippedRule(rule: RuleRef): boolean {
  return rule.source === 'defaults' || rule.source === 'default';
}

/**
 * The shipped ask rules (defaults/settings.json) that guard credentials and secrets, the files the
 * *Credential exposure* rule is about: in auto mode they ask hard, as a user's own asks do, so the model never
 * reads a secret on the agent's word.
 */
export const SHIPPED_SECRET_ASKS: readonly string[] = [
  'Read(.env)',
  'Read(.env.*)',
  // Private keys, key stores and credential files, by name wherever they are.
  ...['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk']
    .concat(['*.p12', '*.pfx', '*.jks', '*.keystore', '.pypirc', '.pgpass', '.boto', '.netrc', '_netrc'])
    .concat(['.git-credentials', '.aws/credentials', '.kube/config', '.docker/config.json'])
    .concat([
      'gcloud/application_default_credentials.json',
      'gcloud/credentials.db',
      'gcloud/access_tokens.db',
    ])
    .concat(['gcloud/legacy_credentials/**', '.azure/accessTokens.json', '.azure/msal_token_cache.*'])
    .map((name) => `Read(//**/${name})`),
];

/**
 * An ask by a shipped ask rule that guards no secret: in auto mode a soft ask that the model judges (see the
 * `autoSoft` trait).
 */
export function isShippedAsk(p: PartVerdict): boolean {
  return (
    p.decision === 'ask' &&
    p.by === 'rule' &&
    p.rule?.behavior === 'ask' &&
    isShippedRule(p.rule) &&
    !SHIPPED_SECRET_ASKS.includes(p.rule.text)
  );
}

export interface PartVerdict {
  /** The analysed command's id, when the part is a shell command. */
  command?: number;
  /** What the part is: the command line, a file path, the redirect. */
  subject: string;
  decision: Decision;
  reason: string;
  by: DecidedBy;
  rule?: RuleRef;
  /** The shipped ask rules a user's allow `rule` overrides (see `policy/tiers.ts`). */
  overrides?: RuleRef[];
  /** For a shell command: whether it is one of the read-only defaults (plan mode allows only these). */
  readOnly?: boolean;
  /**
   * For a shell command a deny or ask rule decided: what it destroys or changes, when its file effects do not say
   * it (`drops the stash entry stash@{0} and the changes it holds`; `policy/destruction.ts`).
   */
  effect?: string;
  /**
   * Auto mode only: the part was a soft ask (a shipped ask rule, hidden code) and went to the model; this is
   * the reason it was asked, as the model was told. When the model allowed it, `by` is `model`.
   */
  soft?: string;
}

export interface Verdict {
  decision: Decision;
  reason: string;
  by: DecidedBy;
  rule?: RuleRef;
  tool: string;
  mode: string;
  parts: PartVerdict[];
  /**
   * Auto mode only, on an ask: `hard` when a part stays away from the model (a deny or user-written ask rule,
   * an opaque or dynamic command, a protected path, a size limit, a settings error); `soft` when every asked
   * part is one the model judges (a shipped ask rule, hidden code, no rule), whether it failed, was not
   * configured or turned a denial into a question.
   */
  ask?: 'hard' | 'soft';
}

/** How a rule is named in a reason: its text, or a pattern rule's label. */
export function ruleName(rule: Rule): string {
  return rule.type === 'pattern' ? rule.label : rule.text;
}

export function ruleRef(rule: Rule): RuleRef {
  const p = rule.provenance;
  const ref: RuleRef = {
    text: rule.text,
    behavior: rule.behavior,
    source: p.source,
    index: p.index,
    pointer: p.pointer,
  };
  if (p.file !== undefined) ref.file = p.file;
  if (p.line !== undefined) ref.line = p.line;
  if (p.column !== undefined) ref.column = p.column;
  if (rule.type === 'pattern') ref.label = rule.label;
  return ref;
}

/** Among equally strict parts, which one names the verdict: a rule, then a fail-closed check, then the rest. */
function weight(p: PartVerdict): number {
  if (p.rule) return 3;
  return failsClosed(p.by) ? 2 : 1;
}

/**
 * Of two parts, the one that names their verdict: the stricter, and among equals the most telling one (see
 * weight), else the first. Every place that keeps one of several parts chooses with it, so that a protected
 * path found for one of the folders a command may run in is not hidden by a softer ask for another.
 */
export function strictestPart(worst: PartVerdict | undefined, p: PartVerdict): PartVerdict {
  if (!worst || isStricter(p.decision, worst.decision)) return p;
  if (p.decision === worst.decision && weight(p) > weight(worst)) return p;
  return worst;
}

/** The strictest part decides (see strictestPart). */
export function combine(tool: string, mode: string, parts: PartVerdict[]): Verdict {
  let worst: PartVerdict | undefined;
  for (const p of parts) worst = strictestPart(worst, p);
  if (!worst) {
    return { decision: 'ask', reason: 'nothing to decide', by: 'no-rule', tool, mode, parts };
  }
  const v: Verdict = { decision: worst.decision, reason: worst.reason, by: worst.by, tool, mode, parts };
  if (worst.rule) v.rule = worst.rule;
  return v;
}
