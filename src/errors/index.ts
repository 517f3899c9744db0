export { ERROR_CODES, type ErrorCode } from './codes.js';
export {
  CondenseError,
  type CondenseErrorOptions,
  type ErrorLocation,
  formatLocation,
  isCondenseError,
} from './condense-error.js';
