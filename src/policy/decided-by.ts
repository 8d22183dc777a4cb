/** What settled a part: a rule, a built-in check, or the absence of either. */
export type DecidedBy =
  | 'rule'
  | 'read-only'
  | 'wrapper'
  | 'protected-path'
  | 'critical-path'
  | 'opaque'
  | 'dynamic'
  | 'hidden-code'
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
}

const no: Traits = { failsClosed: false, alwaysAsks: false, modelSettles: false, allowSettles: false };
const refused: Traits = { ...no, failsClosed: true, alwaysAsks: true };
const undecided: Traits = { ...no, modelSettles: true, allowSettles: true };

const TRAITS: Record<DecidedBy, Traits> = {
  rule: no,
  'read-only': no,
  wrapper: no,
  'protected-path': refused,
  'critical-path': refused,
  opaque: refused,
  dynamic: refused,
  'hidden-code': refused,
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
