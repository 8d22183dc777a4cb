import { type Analysis, analyze, parseOptions, programSpec, type Span, type Word } from '../bash/index.js';
import type { DecisionContext } from './context.js';
import { gitFolders } from './git-folders.js';
import { realPath, resolveWordPath } from './paths.js';
import { repositoryOf } from './revision-writes.js';
import { workingFolders } from './working-folders.js';

const PLACE_OPTIONS = new Set(['--git-dir', '--work-tree']);

/**
 * `git --git-dir=.git status` and `GIT_DIR=.git git status` name the project's own repository: that is the
 * repository git finds anyway, so the line is decided without them. The git folder must be the project's own
 * `.git`, and the work tree its top, named by `--work-tree`/`GIT_WORK_TREE` or the folder git runs in (git takes
 * the folder it runs in as the top when only the git folder is named); a work tree named without the git folder
 * is left as it is. Any other repository stays as it is: its
 * configuration is code automode cannot see. Undefined when nothing is dropped.
 */
export function withoutOwnRepository(analysis: Analysis, ctx: DecisionContext): Analysis | undefined {
  if (!/--git-dir|--work-tree|GIT_DIR|GIT_WORK_TREE/.test(analysis.source)) return undefined;
  const project = repositoryOf(ctx.root ?? ctx.cwd);
  if (!project) return undefined;
  const gitDir = realPath(project.gitDir, ctx.realPaths);
  const top = realPath(project.root, ctx.realPaths);
  const cwds = workingFolders(analysis, ctx);
  const spec = programSpec('git');
  if (!gitDir || !top || !cwds || !spec) return undefined;
  const cuts: Span[] = [];
  for (const cmd of analysis.commands) {
    if (cmd.name?.program !== 'git' || cmd.nested || cmd.name.path !== undefined) continue;
    const parsed = parseOptions(cmd.argv, 1, spec.grammar);
    if (!parsed.ok) continue;
    const places = parsed.options.filter((o) => PLACE_OPTIONS.has(o.name));
    const variables = cmd.assignments.filter((a) => a.name === 'GIT_DIR' || a.name === 'GIT_WORK_TREE');
    if (places.length + variables.length === 0) continue;
    const named = (name: string): Word | undefined =>
      places.findLast((o) => o.name === `--${name}`)?.value ??
      variables.findLast((a) => a.name === (name === 'git-dir' ? 'GIT_DIR' : 'GIT_WORK_TREE'))?.value;
    const starts = gitFolders(cmd, cwds, ctx);
    if (!starts) continue;
    const resolves = (word: Word | undefined, to: string) =>
      word !== undefined &&
      starts.every((start) => {
        const at = resolveWordPath(word, ctx, start);
        return at !== undefined && realPath(at, ctx.realPaths) === to;
      });
    const dir = named('git-dir');
    const tree = named('work-tree');
    // A work tree named alone stays as it is (the outside corpora ask about it whatever it names).
    if (dir === undefined) continue;
    const ownDir = resolves(dir, gitDir);
    const ownTree =
      tree === undefined
        ? starts.every((start) => realPath(start, ctx.realPaths) === top)
        : resolves(tree, top);
    if (!ownDir || !ownTree) continue;
    for (const o of places) {
      const word = cmd.argv[o.index]!;
      const value = o.value!;
      cuts.push({ start: word.span.start, end: Math.max(word.span.end, value.span.end) });
    }
    for (const a of variables) cuts.push(a.span);
  }
  if (cuts.length === 0) return undefined;
  let source = analysis.source;
  for (const cut of cuts.sort((a, b) => b.start - a.start))
    source = `${source.slice(0, cut.start)}${source.slice(cut.end)}`;
  const again = analyze(source);
  return again.opaque || again.commands.length !== analysis.commands.length ? undefined : again;
}
