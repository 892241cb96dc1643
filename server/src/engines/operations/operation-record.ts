import type { OperationRow } from '../../storage/operations/operation-store.js';
import type { OperationRecord } from './types.js';

/** The engine record of a stored row. */
export function toOperationRecord(row: OperationRow): OperationRecord {
  const nullableNumber = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    tenant: row.tenant,
    kind: row.kind,
    state: row.state,
    targetId: row.target_id,
    trackingId: row.tracking_id,
    progress: {
      done: Number(row.progress_done),
      total: Number(row.progress_total),
      unit: row.progress_unit,
      message: row.progress_message,
    },
    createdAt: Number(row.created_at),
    startedAt: nullableNumber(row.started_at),
    updatedAt: Number(row.updated_at),
    finishedAt: nullableNumber(row.finished_at),
    cancelRequested: Number(row.cancel_requested) === 1,
    ...(row.error_code !== null && {
      error: { code: row.error_code, message: row.error_message ?? '' },
    }),
    createdBy: row.created_by,
    ...(row.cancelled_by !== null && { cancelledBy: row.cancelled_by }),
    ...(row.result_json !== null && { result: JSON.parse(row.result_json) as unknown }),
    ...(row.request_json && { requestJson: row.request_json }),
  };
}
