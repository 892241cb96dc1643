export { OperationRunner } from './operation-runner.js';
export { requestFingerprint } from './fingerprint.js';
export { startTracked, type Starter, type TrackedStart } from './start-tracked.js';
export type {
  EndedRun,
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
  RunningRun,
  SubmitRequest,
} from './types.js';
