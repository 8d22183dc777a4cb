/** The tools the model answers with: stage 1 flags the action, stage 2 decides it. */
export const STAGE1_TOOL = 'flag_action';
export const STAGE2_TOOL = 'decide_action';
