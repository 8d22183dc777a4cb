import { ANSIBLE_MODULES } from './ansible.js';
import { AUTH0 } from './auth0.js';
import { AWK_MODULE } from './awk/index.js';
import { AWS_MODULE } from './aws/index.js';
import { AZ } from './az/index.js';
import { BLACK_MODULE } from './black.js';
import { BREW_MODULE } from './brew.js';
import { BUILTIN_SPECS } from './builtin-specs.js';
import { BUN_MODULE, BUNX_MODULE } from './bun.js';
import { CARGO_MODULE } from './cargo.js';
import { CDK_MODULE } from './cdk.js';
import { CP_MODULE } from './cp.js';
import { CPIO_MODULE } from './cpio.js';
import { CURL_MODULE } from './curl.js';
import { DMESG_MODULE } from './dmesg.js';
import { DOCKER_COMPOSE } from './docker/compose.js';
import { DOCKER } from './docker/index.js';
import { DUCKDB_MODULE } from './duckdb.js';
import { FD_MODULE } from './fd.js';
import { FILE_TOOL_SPECS } from './file-tools.js';
import { FIND_MODULE } from './find/index.js';
import { FZF_MODULE } from './fzf.js';
import { GCLOUD } from './gcloud/index.js';
import { GH } from './gh/index.js';
import { GIT_MODULE } from './git/index.js';
import { GREP_MODULE } from './grep.js';
import { GUNZIP_MODULE, GZIP_MODULE, ZCAT_MODULE } from './gzip.js';
import { HELM } from './helm.js';
import { ICONV_MODULE } from './iconv.js';
import { INTERPRETER_RELOCATIONS } from './interpreters.js';
import { IP_MODULE } from './ip.js';
import { ISORT_MODULE } from './isort.js';
import { JOURNALCTL_MODULE } from './journalctl.js';
import { JQ_MODULE } from './jq/index.js';
import { KERNEL_SPECS } from './kernel-specs.js';
import { KUBECTL } from './kubectl/index.js';
import { MACOS_TOOL_MODULES } from './macos/index.js';
import { MACOS_MODULES, MACOS_SPECS } from './macos.js';
import { MAN_MODULE } from './man.js';
import { MKTEMP_MODULE } from './mktemp.js';
import type { ProgramModule } from './module.js';
import { MYSQL_MODULE } from './mysql.js';
import { NC_MODULE, NCAT_MODULE } from './netcat.js';
import { NPM_MODULE } from './npm.js';
import { NPX_MODULE, PNPX_MODULE } from './npx.js';
import { OPENSSL_MODULE } from './openssl.js';
import { PACKER_MODULE } from './packer.js';
import { PATCH_MODULE } from './patch.js';
import { PIP_MODULE } from './pip.js';
import { PNPM_MODULE } from './pnpm.js';
import { PODMAN } from './podman/index.js';
import { PRE_COMMIT_MODULE } from './pre-commit.js';
import type { ProgramSpec, SubcommandSpec } from './program.js';
import { PSQL_MODULE } from './psql.js';
import type { Relocation } from './relocation.js';
import { RG_MODULE } from './rg.js';
import { RSYNC_MODULE } from './rsync.js';
import { RTK_MODULE } from './rtk.js';
import { RUFF_MODULE } from './ruff.js';
import { RUNNER_RELOCATIONS } from './runners.js';
import { SCP_MODULE } from './scp.js';
import { SED_MODULE } from './sed/index.js';
import { SEVEN_ZIP_MODULE } from './seven-zip.js';
import { SFTP_MODULE } from './sftp.js';
import { SOCAT_MODULE } from './socat.js';
import { SORT_SPEC } from './sort-spec.js';
import { SQLITE3_MODULE } from './sqlite3.js';
import { SS_MODULE } from './ss.js';
import { SSH_MODULE } from './ssh.js';
import { SSH_KEYGEN_MODULE } from './ssh-keygen.js';
import { SYSTEM_SPECS } from './system-specs.js';
import { TAR_MODULE } from './tar.js';
import { TERRAFORM } from './terraform.js';
import { TEXT_TOOL_SPECS } from './text-tools.js';
import { TREE_MODULE } from './tree.js';
import { UNZIP_MODULE, ZIPINFO_MODULE } from './unzip.js';
import { UV_MODULE } from './uv.js';
import { WGET_MODULE } from './wget.js';
import { WHEREIS_MODULE } from './whereis.js';
import { YARN_MODULE } from './yarn.js';
import { YQ_MODULE } from './yq.js';

/** The programs kept as one module each (`module.ts`); the tables below hold the rest until they move. */
const MODULES: readonly ProgramModule[] = [
  GIT_MODULE,
  SED_MODULE,
  AWK_MODULE,
  DOCKER,
  DOCKER_COMPOSE,
  PODMAN,
  KUBECTL,
  HELM,
  TERRAFORM,
  ...ANSIBLE_MODULES,
  CDK_MODULE,
  PACKER_MODULE,
  AZ,
  GCLOUD,
  GH,
  AUTH0,
  GREP_MODULE,
  RG_MODULE,
  TREE_MODULE,
  CP_MODULE,
  FIND_MODULE,
  TAR_MODULE,
  CPIO_MODULE,
  PATCH_MODULE,
  JQ_MODULE,
  YQ_MODULE,
  SSH_MODULE,
  SSH_KEYGEN_MODULE,
  SCP_MODULE,
  SFTP_MODULE,
  RSYNC_MODULE,
  OPENSSL_MODULE,
  NC_MODULE,
  NCAT_MODULE,
  SOCAT_MODULE,
  NPM_MODULE,
  NPX_MODULE,
  PNPX_MODULE,
  PNPM_MODULE,
  YARN_MODULE,
  BUN_MODULE,
  BUNX_MODULE,
  PIP_MODULE,
  PRE_COMMIT_MODULE,
  CARGO_MODULE,
  UV_MODULE,
  MAN_MODULE,
  WHEREIS_MODULE,
  UNZIP_MODULE,
  ZIPINFO_MODULE,
  SS_MODULE,
  DMESG_MODULE,
  JOURNALCTL_MODULE,
  IP_MODULE,
  MKTEMP_MODULE,
  SQLITE3_MODULE,
  DUCKDB_MODULE,
  PSQL_MODULE,
  MYSQL_MODULE,
  FD_MODULE,
  FZF_MODULE,
  SEVEN_ZIP_MODULE,
  AWS_MODULE,
  BREW_MODULE,
  RTK_MODULE,
  ...MACOS_MODULES,
  ...MACOS_TOOL_MODULES,
  CURL_MODULE,
  WGET_MODULE,
  GZIP_MODULE,
  GUNZIP_MODULE,
  ZCAT_MODULE,
  ICONV_MODULE,
  RUFF_MODULE,
  ISORT_MODULE,
  BLACK_MODULE,
];

/**
 * Every program automode has a spec for. A program not listed here is unknown: it is never read-only and deny
 * rules match it by its words alone.
 */
const SPECS: readonly ProgramSpec[] = [
  ...BUILTIN_SPECS,
  ...SYSTEM_SPECS,
  ...TEXT_TOOL_SPECS,
  SORT_SPEC,
  ...FILE_TOOL_SPECS,
  ...MACOS_SPECS,
  ...KERNEL_SPECS,
  ...MODULES.flatMap((m) => (m.spec ? [m.spec] : [])),
];

const BY_NAME = new Map<string, ProgramSpec>();
for (const spec of SPECS) {
  for (const name of [spec.name, ...(spec.aliases ?? [])]) {
    if (BY_NAME.has(name)) throw new Error(`two program specs are named ${name}`);
    BY_NAME.set(name, spec);
  }
}

/** The spec of the program a command names (its basename), or undefined when automode has none. */
export function programSpec(program: string): ProgramSpec | undefined {
  return BY_NAME.get(program);
}

/**
 * The spec a deny or ask rule reads the program by: also `mkfs.ext4` for `mkfs`, when the spec says its
 * family ships dotted variants. Never used to allow: `cat.sh` is not `cat`.
 */
export function familySpec(program: string): ProgramSpec | undefined {
  const exact = BY_NAME.get(program);
  if (exact) return exact;
  const dot = program.indexOf('.');
  const family = dot > 0 ? BY_NAME.get(program.slice(0, dot)) : undefined;
  return family?.dottedVariants ? family : undefined;
}

export function allProgramSpecs(): readonly ProgramSpec[] {
  return SPECS;
}

const MODULE_BY_NAME = new Map<string, ProgramModule>();
for (const module of MODULES) {
  for (const name of module.names) {
    if (MODULE_BY_NAME.has(name)) throw new Error(`two program modules are named ${name}`);
    MODULE_BY_NAME.set(name, module);
  }
}

/** The module of a program (its family name: `python` for `python3.12`), or undefined. */
export function programModule(program: string): ProgramModule | undefined {
  return MODULE_BY_NAME.get(program);
}

export function allProgramModules(): readonly ProgramModule[] {
  return MODULES;
}

const RELOCATION_BY_NAME = new Map<string, Relocation>();
for (const [name, relocation] of [
  ...MODULES.flatMap((m) => (m.relocation ? m.names.map((n) => [n, m.relocation!] as const) : [])),
  ...Object.entries(RUNNER_RELOCATIONS),
  ...Object.entries(INTERPRETER_RELOCATIONS),
]) {
  if (RELOCATION_BY_NAME.has(name)) throw new Error(`two relocations are given for ${name}`);
  RELOCATION_BY_NAME.set(name, relocation);
}

/** How a code runner's options make it take its code from another place (`Relocation`), or undefined. */
export function programRelocation(program: string): Relocation | undefined {
  return RELOCATION_BY_NAME.get(program);
}

function levelReadsServices(level: SubcommandSpec): boolean {
  return level.serviceRead !== undefined || Object.values(level.subcommands ?? {}).some(levelReadsServices);
}

/** The programs some command of which has a service-read allow-list (what `automode.readServices` turns on). */
export function serviceReadPrograms(): string[] {
  return SPECS.filter(levelReadsServices).map((spec) => spec.name);
}
