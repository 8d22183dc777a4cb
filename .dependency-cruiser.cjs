// The architecture of src/, checked by `npm run lint` (depcruise src --config .dependency-cruiser.cjs).

/**
 * The top-level folders of src/, lowest first. A folder may import only folders on a lower line: never a folder
 * on its own line, never one above. src/index.ts (the package root) sits just below cli.
 */
const LAYERS = [
  ['shared'],
  ['bash', 'rules', 'llm'],
  ['policy'],
  ['classifier'],
  ['hooks'],
  ['pipeline'],
  ['critique', 'testing', 'eval', 'service'],
  ['vitest'],
  ['cli'],
];

/**
 * Lazy entries: modules other folders load only with import() (or name only in types), so that a decision by
 * the rules alone never pays for the Anthropic SDK or zod. src/index.ts may import them statically.
 */
const LAZY_ENTRIES = ['src/llm/client.ts', 'src/llm/recording.ts', 'src/llm/message.ts'];

/** Modules a folder loads only with import(); its index.ts must not import them at run time. */
const LAZY_MODULES = [
  ...LAZY_ENTRIES,
  'src/classifier/cached-judge.ts',
  'src/classifier/judge.ts',
  'src/classifier/prompt.ts',
  'src/rules/pattern/schema.ts',
  'src/rules/pattern/json-schema.ts',
  'src/rules/pattern/redos.ts',
];

const FOLDERS = LAYERS.flat();
const any = (names) => `^src/(${names.join('|')})/`;
const exactly = (files) => files.map((f) => `^${f.replaceAll('.', '\\.')}$`);
const FOLDER_INDEX = '^src/[^/]+/index\\.ts$';
/** Imports that load nothing at run time. */
const TYPE_ONLY = ['type-only', 'type-import'];

/** One rule per folder below cli: it may import itself and the folders on lower lines. */
const layerRules = LAYERS.slice(0, -1).flatMap((line, level) => {
  const below = LAYERS.slice(0, level).flat();
  return line.map((folder) => ({
    name: 'layers',
    comment: `${folder}/ may import only ${below.length ? below.map((f) => `${f}/`).join(', ') : 'no other folder'}.`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: '^src/', pathNot: any([folder, ...below]) },
  }));
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle in src/, type-only imports included: declare shared types in a types module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'layers',
      comment: `A folder of src/ must have a line in LAYERS: ${FOLDERS.join(', ')}.`,
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: any(FOLDERS) },
      to: { path: '^src/' },
    },
    {
      name: 'layers',
      comment:
        'src/index.ts, the package root, and src/classifier-entry.ts may import every folder but cli/.',
      severity: 'error',
      from: { path: '^src/(index|classifier-entry)\\.ts$' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'entry-only',
      comment: "A static import from one folder of src/ into another targets that folder's index.ts.",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', FOLDER_INDEX],
        dependencyTypesNot: ['dynamic-import', 'type-import'],
      },
    },
    {
      name: 'entry-only',
      comment: "An import() from one folder into another targets that folder's index.ts or a lazy entry.",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', FOLDER_INDEX, ...exactly(LAZY_ENTRIES)],
        dependencyTypes: ['dynamic-import', 'type-import'],
      },
    },
    {
      name: 'entry-only',
      comment: 'src/index.ts imports a folder through its index.ts, or a lazy entry.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/[^/]+/', pathNot: [FOLDER_INDEX, ...exactly(LAZY_ENTRIES)] },
    },
    {
      name: 'lean-entry',
      comment:
        'src/classifier-entry.ts (automode/classifier) imports folders through their index.ts only, never a lazy ' +
        'entry: importing it loads neither the Anthropic SDK nor zod.',
      severity: 'error',
      from: { path: '^src/classifier-entry\\.ts$' },
      to: { path: '^src/', pathNot: FOLDER_INDEX, dependencyTypesNot: TYPE_ONLY },
    },
    {
      name: 'lazy-stays-lazy',
      comment: "A folder's index.ts loads none of its lazy modules at run time (it may name their types).",
      severity: 'error',
      from: { path: FOLDER_INDEX },
      to: { path: exactly(LAZY_MODULES), dependencyTypesNot: ['dynamic-import', ...TYPE_ONLY] },
    },
    {
      name: 'no-own-index',
      comment:
        "A module inside a folder does not import its own folder's index.ts (that is for other folders).",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: FOLDER_INDEX },
      to: { path: '^src/$1/index\\.ts$' },
    },
    {
      name: 'no-own-index',
      comment: 'Nor, deeper down, the index.ts of the folder it is in.',
      severity: 'error',
      from: { path: '^(src/[^/]+/.+)/[^/]+$', pathNot: '/index\\.ts$' },
      to: { path: '^$1/index\\.ts$' },
    },
    {
      name: 'optional-stays-optional',
      comment:
        'The optional peer dependencies (OPTIONAL_PACKAGES in src/pipeline/optional.ts) load with import() ' +
        'through loadOptional where a feature starts; a static import may name their types only.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: 'node_modules/(@modelcontextprotocol/sdk|@anthropic-ai/sandbox-runtime|turndown)/',
        dependencyTypesNot: ['dynamic-import', ...TYPE_ONLY],
      },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-dev-dep',
      comment:
        'src/ is shipped: it uses dependencies and peerDependencies (vitest is both a peer and a devDependency), ' +
        'never a devDependency alone (@types/ aside).',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['npm-peer'], pathNot: 'node_modules/@types/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
