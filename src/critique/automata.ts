import {
  type Char,
  CharSet,
  combineTransformers,
  DFA,
  type Element,
  type Expression,
  getIntersectionWordSets,
  isDisjointWith,
  JS,
  NFA,
  type Node,
  type NoParent,
  TooManyNodesError,
  Transformers,
  transform,
  Words,
} from 'refa';

/**
 * Regular languages of subjects (command lines, paths, JSON inputs) as refa automata. A JavaScript regex is
 * tested by search, and `^`/`$` look at the ends of the subject, so a subject `s` is modelled as the word
 * `⊢s⊣`. A regex R becomes `(?:⊢[^⊢⊣]*)?(?:R')(?:[^⊢⊣]*⊣)?` intersected with `⊢[^⊢⊣]*⊣`, where R' is R with
 * `^` and `$` consuming the markers and no character class admitting them. Every position then has a
 * character on each side, so `(?<!\w)` becomes `(?<=[^\w])` (markers included), which refa's simplifier can
 * apply; lookarounds refa cannot apply, backreferences, and anchors next to other anchors or lookarounds make
 * the language an approximation, whose witnesses are kept only when the real regex agrees. A property test
 * holds the exact cases to `RegExp.test`.
 */

const MAX = 0xffff as Char;
const START = 0xe000 as Char;
const END = 0xe001 as Char;
const MARKERS = CharSet.fromCharacters(MAX, [START, END]);
const ALL = CharSet.all(MAX);
const INNER = ALL.without(MARKERS);
const PRINTABLE = CharSet.fromRange(MAX, { min: 0x20 as Char, max: 0x7e as Char });
/** How many states an automaton may reach in any one check; past it the check stops and claims nothing. */
export const AUTOMATON_BOUND = 20_000;
const NODE_LIMIT = AUTOMATON_BOUND;

export interface Language {
  /** The regex source, with search semantics. */
  source: string;
  /** Words `⊢s⊣` for the subjects `s` the regex matches (or an approximation, see `approximation`). */
  nfa: NFA;
  /** Why the automaton is not exact; absent when it is. */
  approximation?: string;
  /** The real matcher. */
  test(subject: string): boolean;
}

export type LanguageResult = { language: Language } | { error: string };

type Shape = NoParent<Node>;

function charClass(characters: CharSet): NoParent<Element> {
  return { type: 'CharacterClass', characters };
}

function star(characters: CharSet): NoParent<Element> {
  return {
    type: 'Quantifier',
    min: 0,
    max: Number.POSITIVE_INFINITY,
    lazy: false,
    alternatives: [{ type: 'Concatenation', elements: [charClass(characters)] }],
  };
}

function isEdge(node: NoParent<Node>, kind: 'ahead' | 'behind'): boolean {
  if (node.type !== 'Assertion' || node.kind !== kind || !node.negate) return false;
  const [only] = node.alternatives;
  const [element] = only?.elements ?? [];
  return (
    node.alternatives.length === 1 &&
    only!.elements.length === 1 &&
    element?.type === 'CharacterClass' &&
    element.characters.isAll
  );
}

/** Replaces `^` and `$` by the marker characters and keeps the markers out of every character class. */
function mark<T extends Shape>(node: T): T {
  const n = node as Shape;
  switch (n.type) {
    case 'CharacterClass':
      return { ...n, characters: n.characters.without(MARKERS) } as T;
    case 'Unknown':
      return node;
    case 'Concatenation':
      return { ...n, elements: n.elements.map(markElement) } as T;
    default:
      return { ...n, alternatives: n.alternatives.map((a) => mark(a)) } as T;
  }
}

function markElement(element: NoParent<Element>): NoParent<Element> {
  if (isEdge(element, 'behind')) return charClass(CharSet.fromCharacter(MAX, START));
  if (isEdge(element, 'ahead')) return charClass(CharSet.fromCharacter(MAX, END));
  const single = singleClass(element);
  if (element.type === 'Assertion' && element.negate && single) {
    // Inside the frame every position has a character on both sides (a marker at the ends), so "not a word
    // character" is "some other character, markers included": a positive assertion refa can apply.
    return {
      ...element,
      negate: false,
      alternatives: [{ type: 'Concatenation', elements: [charClass(single.negate())] }],
    };
  }
  return mark(element);
}

/**
 * Whether some path through the regex puts an anchor where the marker model differs from the real regex: two
 * anchors at one place (`^^`, `$^`), or a lookaround right after `$` or right before `^` (it would look at the
 * marker instead of beyond the text).
 */
function anchorTrouble(node: Shape): boolean {
  return [...paths(node)].some((p) => p.endsWith('!'));
}

type Token = '^' | '$' | 'L' | 'c';
const BAD = new Set(['^^', '$$', '$^', '$L', 'L^']);

/** Path summaries `first,last` (tokens, or empty), with `!` appended once a bad junction was seen. */
function paths(node: Shape): Set<string> {
  const one = (t: Token | '') => new Set([`${t},${t}`]);
  switch (node.type) {
    case 'CharacterClass':
      return one('c');
    case 'Unknown':
      return new Set([',', 'c,c']);
    case 'Concatenation': {
      let acc = one('');
      for (const e of node.elements) {
        const next = isEdge(e, 'behind')
          ? one('^')
          : isEdge(e, 'ahead')
            ? one('$')
            : e.type === 'Assertion'
              ? one('L')
              : paths(e);
        acc = join(acc, next);
      }
      return acc;
    }
    case 'Assertion':
      return one('L');
    default: {
      const inner = new Set<string>();
      for (const a of node.alternatives) for (const p of paths(a)) inner.add(p);
      if (node.type !== 'Quantifier') return inner;
      const out = new Set<string>();
      if (node.min === 0) out.add(',');
      for (const p of inner) out.add(p);
      if (node.max > 1) for (const p of join(inner, inner)) out.add(p);
      return out;
    }
  }
}

function join(left: Set<string>, right: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const l of left) {
    for (const r of right) {
      const bad = l.endsWith('!') || r.endsWith('!');
      const [lf = '', ll = ''] = l.replace('!', '').split(',');
      const [rf = '', rl = ''] = r.replace('!', '').split(',');
      const junction = BAD.has(`${ll}${rf}`);
      const first = lf || rf;
      const last = rl || ll;
      out.add(`${first},${last}${bad || junction ? '!' : ''}`);
    }
  }
  return out;
}

function singleClass(node: NoParent<Element>): CharSet | undefined {
  if (node.type !== 'Assertion' || node.alternatives.length !== 1) return undefined;
  const elements = node.alternatives[0]!.elements;
  const only = elements[0];
  return elements.length === 1 && only?.type === 'CharacterClass'
    ? only.characters.without(MARKERS)
    : undefined;
}

const FRAME = frameOf(INNER);
const PRINTABLE_FRAME = frameOf(PRINTABLE);

function frameOf(inner: CharSet): NFA {
  const expression: NoParent<Expression> = {
    type: 'Expression',
    alternatives: [
      {
        type: 'Concatenation',
        elements: [
          charClass(CharSet.fromCharacter(MAX, START)),
          star(inner),
          charClass(CharSet.fromCharacter(MAX, END)),
        ],
      },
    ],
  };
  return NFA.fromRegex(expression, { maxCharacter: MAX });
}

/**
 * A lookaround left at an edge of the whole pattern sits before the frame's `⊢` (or after its `⊣`): the only
 * paths through it start the match at `⊢` itself, through a `^`, where only a lookaround written before the
 * `^` could tell the difference. Such lookarounds are dropped.
 */
const PASSES = combineTransformers([
  Transformers.simplify({ ignoreAmbiguity: true, ignoreOrder: true }),
  Transformers.patternEdgeAssertions({ inline: true, remove: true }),
]);

/** What in a regex the automaton cannot represent exactly, as written. */
function unsupported(expression: NoParent<Expression>, source: string): string[] {
  const found: string[] = [];
  const visit = (node: Shape): void => {
    if (node.type === 'Unknown') found.push(`backreference ${node.id}`);
    else if (node.type === 'Assertion' && !isEdge(node, 'ahead') && !isEdge(node, 'behind')) {
      const raw = node.source ? source.slice(node.source.start, node.source.end) : '';
      found.push(raw ? `assertion ${raw}` : 'an assertion');
    }
    if (node.type === 'Concatenation') node.elements.forEach(visit);
    else if ('alternatives' in node) node.alternatives.forEach(visit);
  };
  visit(expression);
  return [...new Set(found)];
}

const NO_FLAGS = {
  dotAll: false,
  ignoreCase: false,
  multiline: false,
  unicode: false,
  unicodeSets: false,
} as const;

/**
 * The expression printed and parsed again: refa's transformers apply lookarounds reliably to trees its parser
 * made, not always to hand-built ones. A tree it cannot print (a backreference) is used as it is.
 */
function reparsed(expression: NoParent<Expression>): NoParent<Expression> {
  if (hasUnknown(expression)) return expression;
  try {
    const literal = JS.toLiteral(expression, { flags: NO_FLAGS });
    return JS.Parser.fromLiteral(literal).parse({ backreferences: 'unknown', maxNodes: NODE_LIMIT })
      .expression;
  } catch {
    return expression;
  }
}

function hasUnknown(node: Shape): boolean {
  if (node.type === 'Unknown') return true;
  if (node.type === 'CharacterClass') return false;
  if (node.type === 'Concatenation') return node.elements.some(hasUnknown);
  return node.alternatives.some(hasUnknown);
}

const cache = new Map<string, LanguageResult>();

/** The language of a regex (no flags) tested by search on a subject. Cached by source. */
export function regexLanguage(source: string): LanguageResult {
  let result = cache.get(source);
  if (!result) {
    result = build(source);
    cache.set(source, result);
  }
  return result;
}

function build(source: string): LanguageResult {
  let real: RegExp;
  let parsed: ReturnType<JS.Parser['parse']>;
  try {
    real = new RegExp(source);
    parsed = JS.Parser.fromLiteral({ source, flags: '' }).parse({
      backreferences: 'unknown',
      assertions: 'parse',
      maxNodes: NODE_LIMIT,
    });
  } catch (err) {
    return { error: (err as Error).message };
  }
  const marked = mark(parsed.expression as NoParent<Expression>);
  // Either the text before the match starts with `⊢`, or the match does (through `^`); the same at the end.
  const optional = (elements: NoParent<Element>[]): NoParent<Element> => ({
    type: 'Quantifier',
    min: 0,
    max: 1,
    lazy: false,
    alternatives: [{ type: 'Concatenation', elements }],
  });
  const wrapped: NoParent<Expression> = {
    type: 'Expression',
    alternatives: [
      {
        type: 'Concatenation',
        elements: [
          optional([charClass(CharSet.fromCharacter(MAX, START)), star(INNER)]),
          { type: 'Alternation', alternatives: marked.alternatives },
          optional([star(INNER), charClass(CharSet.fromCharacter(MAX, END))]),
        ],
      },
    ],
  };
  const repeated = anchorTrouble(parsed.expression as Shape);
  const test = (subject: string) => real.test(subject);
  try {
    const simple = transform(PASSES, reparsed(wrapped));
    const factory = new NFA.LimitedNodeFactory(NODE_LIMIT);
    const left = unsupported(simple, source);
    const options = { maxCharacter: MAX };
    const nfa =
      left.length === 0
        ? NFA.fromRegex(simple, options, { infinityThreshold: 1000 }, factory)
        : NFA.fromRegex(
            simple,
            options,
            { assertions: 'ignore', unknowns: 'disable', infinityThreshold: 1000 },
            factory,
          );
    const framed = NFA.fromIntersection(nfa, FRAME, new NFA.LimitedNodeFactory(NODE_LIMIT));
    const original = unsupported(parsed.expression as NoParent<Expression>, source);
    const language: Language = { source, nfa: framed, test };
    const reasons = left.length > 0 ? (original.length > 0 ? original : left) : [];
    if (repeated) reasons.push('anchors next to other anchors or lookarounds');
    if (reasons.length > 0) language.approximation = reasons.join(', ');
    return { language };
  } catch (err) {
    if (err instanceof TooManyNodesError) return { error: 'the regex is too large to analyse' };
    return { error: (err as Error).message };
  }
}

/**
 * The language of a wildcard pattern: literal text where `*` is any characters, optionally followed by a
 * space and anything (a trailing ` *`). Built directly, without parsing a regex.
 */
export function wildcardLanguage(
  body: string,
  tail: boolean,
  source: string,
  test: (subject: string) => boolean,
): Language {
  const key = `\u0000${tail ? 1 : 0}${body}`;
  const cached = wildcards.get(key);
  if (cached) return { ...cached, source, test };
  const elements: NoParent<Element>[] = [charClass(CharSet.fromCharacter(MAX, START))];
  body.split('*').forEach((literal, i) => {
    if (i > 0) elements.push(star(INNER));
    for (const c of literal) elements.push(charClass(CharSet.fromCharacter(MAX, c.charCodeAt(0) as Char)));
  });
  if (tail) {
    elements.push({
      type: 'Quantifier',
      min: 0,
      max: 1,
      lazy: false,
      alternatives: [
        { type: 'Concatenation', elements: [charClass(CharSet.fromCharacter(MAX, 32 as Char)), star(INNER)] },
      ],
    });
  }
  elements.push(charClass(CharSet.fromCharacter(MAX, END)));
  const nfa = NFA.fromRegex(
    { type: 'Expression', alternatives: [{ type: 'Concatenation', elements }] },
    {
      maxCharacter: MAX,
    },
  );
  const language: Language = { source, nfa, test };
  wildcards.set(key, language);
  return language;
}

const wildcards = new Map<string, Language>();

export function isEmpty(language: Language): boolean {
  return language.nfa.isEmpty;
}

/** Whether two languages share a subject; undefined when that cannot be decided within `AUTOMATON_BOUND` states. */
export function intersects(a: Language, b: Language): boolean | undefined {
  try {
    return !isDisjointWith(a.nfa, b.nfa, NODE_LIMIT);
  } catch {
    return undefined;
  }
}

const complements = new WeakMap<Language, DFA | null>();

/** The DFA of everything the language does not match, or null when it is too large to build. */
function complementOf(language: Language): DFA | null {
  let dfa = complements.get(language);
  if (dfa === undefined) {
    try {
      dfa = DFA.fromFA(language.nfa, new DFA.LimitedNodeFactory(NODE_LIMIT));
      dfa.complement();
    } catch {
      dfa = null;
    }
    complements.set(language, dfa);
  }
  return dfa;
}

/** Everything none of `covers` matches, or null when it is too large to build. */
function complementOfUnion(covers: readonly Language[]): DFA | null {
  if (covers.length === 1) return complementOf(covers[0]!);
  try {
    const union = covers[0]!.nfa.copy();
    for (const c of covers.slice(1)) union.union(c.nfa);
    const not = DFA.fromFA(union, new DFA.LimitedNodeFactory(NODE_LIMIT));
    not.complement();
    return not;
  } catch {
    return null;
  }
}

/**
 * Whether every subject `a` matches is matched by one of `covers`; undefined when that cannot be decided within
 * `AUTOMATON_BOUND` states (the union's complement, or the check against it, is larger).
 */
export function coveredBy(a: Language, covers: readonly Language[]): boolean | undefined {
  if (covers.length === 0) return false;
  const not = complementOfUnion(covers);
  if (!not) return undefined;
  try {
    return isDisjointWith(a.nfa, not, NODE_LIMIT);
  } catch {
    return undefined;
  }
}

/** A subject `a` matches and `b` (if given) does not; for "why is this rule not covered". */
export function differenceWitness(a: Language, b: Language): string | undefined {
  const not = complementOf(b);
  if (!not) return undefined;
  return pick(a, not, (s) => a.test(s) && !b.test(s));
}

/** A subject `a` matches and none of `covers` does, confirmed by the real matchers. */
export function uncoveredWitness(a: Language, covers: readonly Language[]): string | undefined {
  if (covers.length === 0) return witness(a);
  const not = complementOfUnion(covers);
  if (!not) return undefined;
  return pick(a, not, (s) => a.test(s) && !covers.some((c) => c.test(s)));
}

/**
 * A short, readable subject in every given language (printable ASCII preferred), confirmed by the real
 * regexes; undefined when there is none or none could be confirmed.
 */
export function witness(...languages: Language[]): string | undefined {
  if (languages.length === 0) return undefined;
  const [first, ...rest] = languages;
  let nfa = first!.nfa;
  try {
    for (const other of rest)
      nfa = NFA.fromIntersection(nfa, other.nfa, new NFA.LimitedNodeFactory(NODE_LIMIT));
  } catch {
    return undefined;
  }
  return pick({ nfa }, undefined, (s) => languages.every((l) => l.test(s)));
}

/** The first few subjects of a language, shortest first, each made readable; a cheap probe before exact checks. */
export function sample(language: Language, count: number): string[] {
  const out: string[] = [];
  try {
    for (const wordSet of language.nfa.wordSets()) {
      out.push(Words.fromUTF16ToString(wordSet.map(readableChar).slice(1, -1)));
      if (out.length >= count) break;
    }
  } catch {
    // too large: no sample
  }
  return out;
}

const TRIES = 40;

const PREFERRED = [...'abcdefghijklmnopqrstuvwxyz 0123456789-./_=ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map(
  (c) => c.charCodeAt(0) as Char,
);

/** Lower-case letters first, then a space, digits and common punctuation: witnesses read like commands. */
function readableChar(set: CharSet): Char {
  for (const c of PREFERRED) if (set.has(c)) return c;
  return Words.pickMostReadableCharacter(set) ?? (set.ranges[0]!.min as Char);
}

function pick(
  a: { nfa: NFA },
  b: DFA | undefined,
  confirm: (subject: string) => boolean,
): string | undefined {
  for (const frame of [PRINTABLE_FRAME, FRAME]) {
    try {
      const left = b ? NFA.fromIntersection(a.nfa, b, new NFA.LimitedNodeFactory(NODE_LIMIT)) : a.nfa;
      let n = 0;
      for (const wordSet of getIntersectionWordSets(left, frame, NODE_LIMIT)) {
        const word = wordSet.map(readableChar);
        const subject = Words.fromUTF16ToString(word.slice(1, -1));
        if (confirm(subject)) return subject;
        if (++n >= TRIES) break;
      }
    } catch {
      // too large: try the next frame, or give up
    }
  }
  return undefined;
}
