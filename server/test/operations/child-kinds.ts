/** Operation kinds and names the multi-process tests and their child runner share. */
export const TEST_SLOW = 'TEST_SLOW';
export const TEST_RESUMABLE = 'TEST_RESUMABLE';
export const TEST_COUNTED = 'TEST_COUNTED';
/** Side table (in the test's own schema) where `count` handlers record each execution. */
export const EXECUTIONS_TABLE = 'test_executions';

export type ChildMode = 'crash' | 'count';
