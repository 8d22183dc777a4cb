/** What a redacted value is shown as. */
export const REDACTED = '<redacted>';

/** Values with a known token shape: GitHub, GitLab, Slack, AWS, Google, npm, Anthropic/OpenAI-style keys, JWTs. */
const TOKEN_SHAPES = [
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** A value given after a name that says it is secret: `TOKEN=…`, `--password …`, `Authorization: Bearer …`. */
const NAMED_SECRET =
  /((?:[A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|api[_-]?key|authorization|credentials?|otp)[A-Za-z0-9_]*)(=|:\s*|\s+)(?:Bearer\s+|Basic\s+|token\s+)?)(["']?)([^\s"'&;|]{6,})\3/gi;

/** A password in a URL (`https://user:pw@host`), or after curl's `-u user:`. */
const URL_PASSWORD = /(:\/\/[^\s:@/]+:)[^\s@/]+@/g;
const USER_PASSWORD = /((?:^|\s)(?:-u|--user)\s+["']?[^\s:"']+:)[^\s"']+/g;

/** A long run of letters and digits mixed, as random keys are (a commit hash, hex only and at most 40, is not). */
const RANDOM = /(?<![A-Za-z0-9/._-])[A-Za-z0-9+_=-]{32,}(?![A-Za-z0-9._-])/g;

function looksRandom(s: string): boolean {
  if (/^[0-9a-f]{7,40}$/i.test(s)) return false;
  if (/^[a-z_-]+$/i.test(s) || /^[0-9_-]+$/.test(s)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(s)).length;
  return classes >= 2;
}

/** The text with every value that looks like a token or a password replaced by `<redacted>`. */
export function redact(text: string): string {
  let out = text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  out = out.replace(NAMED_SECRET, (whole, lead: string, separator: string, quote: string, value: string) => {
    // A variable, an already hidden value, or a plain word after a space (`gh secret list`) is no secret.
    const word = /^\s+$/.test(separator) && /^[a-z][a-z-]*$/.test(value);
    return word || value === REDACTED || value.startsWith('$') ? whole : `${lead}${quote}${REDACTED}${quote}`;
  });
  out = out.replace(URL_PASSWORD, `$1${REDACTED}@`);
  out = out.replace(USER_PASSWORD, `$1${REDACTED}`);
  out = out.replace(RANDOM, (m) => (looksRandom(m) ? REDACTED : m));
  return out;
}

/** Whether the text holds a value `redact` would hide. */
export function holdsSecret(text: string): boolean {
  return redact(text) !== text;
}

/** A tool input with every string value redacted. */
export function redactInput(input: Record<string, unknown>): Record<string, unknown> {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(input) as Record<string, unknown>;
}
