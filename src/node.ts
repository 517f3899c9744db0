/**
 * condense/node — the file-system edge: reading and writing transcript files atomically, tokenizer files.
 * @module
 */

export { writeFileAtomic } from './io/atomic-write.js';
export { loadTokenizerFile } from './io/load-tokenizer-file.js';
export {
  type LoadedDocument,
  type ReadTranscriptFileOptions,
  readTranscriptFile,
} from './io/read-document.js';
export { readRuleConfigFile } from './io/read-rule-config.js';
export { readTextFile } from './io/read-text.js';
