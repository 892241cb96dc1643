export {
  backupKindWords,
  deadLetterReasonWords,
  healthStatusWords,
  operationKindWords,
  operationStateWords,
  statusCodeWords,
  wordsOf,
  type Worded,
} from './enum-words';
export { keepReasonPhrase, keepReasonWords, retentionActionWords } from './lifecycle-words';
export { rpcMethodWords, rpcServiceWords } from './rpc-words';
export { counted } from './counted';
