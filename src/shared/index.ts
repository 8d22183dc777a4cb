export { workflowCommand } from './github.js';
