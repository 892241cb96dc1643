// The validation worker: compiles policy schemas and judges values off the event loop. It keeps
// its own cache of compiled validators (policy-compiler's LRU, keyed by the schema's hash), and
// reports what it is doing in shared memory so the pool can tell which value a terminated call
// was judging.
import { isStoreError } from '../../errors.js';
// The compiler alone, not core/index.js: a worker that replaces a terminated one loads less.
import { compileSchema } from '../core/policy-compiler.js';
import {
  PROGRESS_COMPILING,
  VERDICT_FAILED,
  VERDICT_PASSED,
  type ValidationReply,
  type ValidationTask,
  type WorkerVerdict,
} from './validation-task.js';

export default function judge(task: ValidationTask): ValidationReply {
  const progress = new Int32Array(task.progress);
  Atomics.store(progress, 0, PROGRESS_COMPILING);
  let validator;
  try {
    validator = compileSchema(task.jsonSchema, task.field);
  } catch (error) {
    if (isStoreError(error)) {
      return { kind: 'refused', field: error.field ?? task.field, message: error.message };
    }
    throw error;
  }
  const verdicts: WorkerVerdict[] = [];
  task.values.forEach((value, index) => {
    Atomics.store(progress, 0, index);
    if (validator.isValid(value)) {
      Atomics.store(progress, 1 + index, VERDICT_PASSED);
      verdicts.push({});
      return;
    }
    Atomics.store(progress, 1 + index, VERDICT_FAILED);
    verdicts.push({
      violations: task.detail === 'verdict' ? [] : validator.explain(value, task.limit),
    });
  });
  return { kind: 'judged', schemaHash: validator.schemaHash, verdicts };
}
