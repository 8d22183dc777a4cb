export {
  type AnswerOptions,
  answerFor,
  answerHookInput,
  type Decide,
  type HookEvent,
  type HookInput,
  hookOutput,
  isHookAnswer,
  isUndecided,
  NO_DECISION,
  readHookInput,
} from './answer.js';
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
