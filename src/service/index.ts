export {
  type AnswerOptions,
  answerFor,
  answerHookInput,
  type Decide,
  type HookInput,
  isUndecided,
  MAX_HOOK_INPUT_DEPTH,
  readHookInput,
} from './answer.js';
export {
  AUTO_IDLE_MINUTES,
  AUTO_KEY_VARIABLE,
  type AutoKey,
  autoKeyDigest,
  autoKeyText,
  autoServiceDir,
  autoServicesRoot,
  liveAutoServices,
  MAX_AUTO_SERVICES,
  replaceAutoService,
  type ServiceEntry,
  serviceEntries,
  startAutoService,
  stopService,
} from './auto.js';
export {
  createDecider,
  type Decider,
  type DeciderOptions,
  type DeciderStatus,
  type Decision,
  type LoadSettings,
} from './decider.js';
export {
  PATHS,
  RECORD_FILE,
  readServiceRecord,
  readToken,
  type ServiceRecord,
  serviceDir,
  TOKEN_FILE,
  TOKEN_HEADER,
} from './discovery.js';
export {
  ANSWER_START_MS,
  FORWARD_TIMEOUT_MS,
  type Forwarded,
  type ForwardTarget,
  forward,
  forwardTarget,
} from './forward.js';
export { type FolderLock, FolderLockedError, LOCK_FILE, lockFolder } from './lock.js';
export { type HookEvent, hookEventOf, hookOutput, isHookAnswer, NO_DECISION } from './protocol.js';
export { liveService, requestService, type ServiceResponse, serviceStatus } from './request.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  type RunningService,
  type ServiceOptions,
  SOCKET_FILE,
  startService,
} from './server.js';
