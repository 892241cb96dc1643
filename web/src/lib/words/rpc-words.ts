import { wordsOf, type Worded } from './enum-words';

/** RPC names whose plain spelling reads badly. */
const METHOD_WORDS: Record<string, string> = {
  WhoAmI: 'Who am I',
  StartBackup: 'Start full backup',
  StartRestoreBackup: 'Start restore',
  RestoreBackup: 'Restore',
  StreamDeadLetters: 'Read dead letters',
};

/**
 * An RPC as words: "store.schema.v1.SchemaControlService/StartAdvanceAndMigrate" or
 * "StartAdvanceAndMigrate" → "Advance and migrate". "Start" is dropped where it only says the
 * call starts a tracked operation (the operation is what the reader cares about).
 */
export function rpcMethodWords(method: string): Worded {
  const name = method.slice(method.lastIndexOf('/') + 1);
  const known = METHOD_WORDS[name];
  if (known) return { words: known, raw: method };
  const operation = /^Start[A-Z]/.test(name) ? name.slice('Start'.length) : name;
  return { words: wordsOf(operation), raw: method };
}

/** "store.schema.v1.SchemaControlService" → "Schema control". */
export function rpcServiceWords(service: string): Worded {
  const name = service.slice(service.lastIndexOf('.') + 1).replace(/Service$/, '');
  return { words: wordsOf(name || service), raw: service };
}
