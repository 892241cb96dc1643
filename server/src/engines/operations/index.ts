export { OperationRunner } from './operation-runner.js';
export { requestFingerprint } from './fingerprint.js';
export { startTracked, type Starter, type TrackedStart } from './start-tracked.js';
export type {
  OperationContext,
  OperationHandler,
  OperationListRequest,
  OperationLogger,
  OperationPage,
  OperationProgress,
  OperationRecord,
  OperationRunnerOptions,
  OperationState,
  ProgressUpdate,
  SubmitRequest,
} from './types.js';
