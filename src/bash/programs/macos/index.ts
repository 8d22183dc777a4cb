import type { ProgramModule } from '../module.js';
import { BINHEX_MODULE } from './binhex.js';
import { CAFFEINATE_MODULE } from './caffeinate.js';
import { COMPRESSION_TOOL_MODULE } from './compression-tool.js';
import { DEFAULTS_MODULE } from './defaults.js';
import { DSCL_MODULE } from './dscl.js';
import { MDIMPORT_MODULE } from './mdimport.js';
import { PROFILES_MODULE } from './profiles.js';
import { QLMANAGE_MODULE } from './qlmanage.js';
import { SAY_MODULE } from './say.js';
import { SECURITY_MODULE } from './security.js';
import { SIPS_MODULE } from './sips.js';
import { SYMBOLS_MODULE } from './symbols.js';
import { TEXTUTIL_MODULE } from './textutil.js';

/** macOS's own tools that have a module each (the smaller ones share `../macos.ts`). */
export const MACOS_TOOL_MODULES: readonly ProgramModule[] = [
  SECURITY_MODULE,
  DEFAULTS_MODULE,
  DSCL_MODULE,
  PROFILES_MODULE,
  SIPS_MODULE,
  TEXTUTIL_MODULE,
  SAY_MODULE,
  SYMBOLS_MODULE,
  MDIMPORT_MODULE,
  QLMANAGE_MODULE,
  BINHEX_MODULE,
  COMPRESSION_TOOL_MODULE,
  CAFFEINATE_MODULE,
];
