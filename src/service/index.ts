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
