import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { makeDirectories } from '../shared/index.js';
import {
  type Configuration,
  configurationOf,
  managedPathOf,
  RULE_FILE_GLOB,
  repositoryRuleFiles,
} from './configuration.js';
import { statKind } from './find-files.js';
import { gitTop, isRevision, listFiles, showFile } from './git.js';

/** One side of a diff: a configuration read from the work tree, or from a git revision into a temp folder. */
export interface Side {
  spec: string;
  kind: 'path' | 'git';
  config: Configuration;
  /** Files the other side names that are not at this revision. */
  missing: string[];
  /** How a file of this side is named in reports: as it is, or `REV:path` for a file read from git. */
  name(file: string): string;
  /** Removes the temp folder of a git side. */
  dispose(): Promise<void>;
}

const NOTHING = async () => {};
const AS_IS = (file: string) => file;

/**
 * Resolves `--base` and `--head`: each a settings file, a rule file, a rule repository folder, or a git revision.
 * A revision is read in the shape of the other side (the same files, as they were at that revision); when both
 * are revisions, the shape is the rule repository in `cwd`. A side named by a file is that file alone: the
 * project's own settings are read only as part of a rule repository folder.
 */
export async function resolveSides(
  baseSpec: string,
  headSpec: string,
  cwd: string,
): Promise<{ base: Side; head: Side } | { error: string }> {
  cwd = await realpath(cwd);
  const kinds: Array<'path' | 'git'> = [];
  for (const spec of [baseSpec, headSpec]) {
    if (statKind(path.resolve(cwd, spec)) !== undefined) kinds.push('path');
    else if (await isRevision(spec, cwd)) kinds.push('git');
    else return { error: `${spec}: neither a file, a folder nor a git revision (in ${cwd})` };
  }
  const shapeSpec = kinds[1] === 'path' ? headSpec : kinds[0] === 'path' ? baseSpec : '.';
  const shape = await configurationOf([shapeSpec], cwd, cwd);
  if ('errors' in shape) return { error: shape.errors.join('; ') };
  const sides: Side[] = [];
  for (const [i, spec] of [baseSpec, headSpec].entries()) {
    if (kinds[i] === 'path') {
      const own = await configurationOf([spec], cwd, cwd);
      if ('errors' in own) return { error: own.errors.join('; ') };
      const config = alone(own.config);
      sides.push({ spec, kind: 'path', config, missing: [], name: AS_IS, dispose: NOTHING });
      continue;
    }
    const side = await fromRevision(spec, shape.config, cwd);
    if ('error' in side) {
      await Promise.all(sides.map((s) => s.dispose()));
      return side;
    }
    sides.push(side);
  }
  return { base: sides[0]!, head: sides[1]! };
}

/** The files of `shape`, as they were at `rev`, written to a temp folder that mirrors the work tree. */
async function fromRevision(
  rev: string,
  shape: Configuration,
  cwd: string,
): Promise<Side | { error: string }> {
  const top = await gitTop(cwd);
  if (!top) return { error: `${rev}: ${cwd} is not in a git work tree` };
  const realTop = await realpath(top);
  const relative = (p: string) => path.relative(realTop, p).split(path.sep).join('/');
  const outside = [shape.project, ...shape.settingsFiles, ...shape.ruleFiles].find((p) =>
    relative(p).startsWith('..'),
  );
  if (outside) return { error: `${outside} is outside the git work tree ${realTop}` };

  const wanted = new Set<string>();
  for (const f of shape.settingsFiles) wanted.add(relative(f));
  if (shape.folder === undefined) for (const f of shape.ruleFiles) wanted.add(relative(f));
  else for (const f of await repositoryFiles(rev, realTop, relative(shape.folder))) wanted.add(f);

  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'automode-diff-')));
  const dispose = () => rm(root, { recursive: true, force: true });
  const mirror = (p: string) => path.join(root, relative(p));
  const missing: string[] = [];
  for (const file of wanted) {
    const content = await showFile(rev, realTop, file);
    if (content === undefined) {
      missing.push(file);
      continue;
    }
    makeDirectories(path.dirname(path.join(root, file)));
    await writeFile(path.join(root, file), content);
  }
  makeDirectories(mirror(shape.project));
  const present = (p: string) => statKind(mirror(p)) === 'file';
  const folder = shape.folder === undefined ? undefined : mirror(shape.folder);
  const config: Configuration = alone({
    project: mirror(shape.project),
    settingsFiles: shape.settingsFiles.filter(present).map(mirror),
    ruleFiles:
      folder === undefined ? shape.ruleFiles.filter(present).map(mirror) : await repositoryRuleFiles(folder),
    managedPath: folder === undefined ? shape.managedPath : managedPathOf(folder),
    ...(folder === undefined ? {} : { folder }),
  });
  const named = new Set([...shape.settingsFiles, ...shape.ruleFiles].map(relative));
  const name = (file: string) => {
    const inside = path.relative(root, file);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return file;
    return `${rev}:${inside.split(path.sep).join('/') || '.'}`;
  };
  return { spec: rev, kind: 'git', config, missing: missing.filter((f) => named.has(f)), name, dispose };
}

/** A configuration of named files, without a rule repository folder, reads nothing else. */
function alone(config: Configuration): Configuration {
  return config.folder === undefined ? { ...config, projectSettings: false } : config;
}

/** The files of a rule repository folder at `rev`: project and managed settings, pattern rule files. */
async function repositoryFiles(rev: string, top: string, folder: string): Promise<string[]> {
  const isRuleFile = picomatch(RULE_FILE_GLOB);
  const isManaged = picomatch('managed-settings.d/*.json');
  const fixed = new Set(['.claude/settings.json', '.claude/settings.local.json', 'managed-settings.json']);
  return (await listFiles(rev, top, folder)).filter((file) => {
    const inside = folder === '' ? file : file.slice(folder.length + 1);
    if (inside.split('/').includes('node_modules')) return false;
    return fixed.has(inside) || isRuleFile(inside) || isManaged(inside);
  });
}
