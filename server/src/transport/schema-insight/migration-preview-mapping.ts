import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { StoreSchemaDeadLetterReason } from '@store/contract';
import {
  MigrationPreviewReportSchema,
  type MigrationPreviewReport as WireReport,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import type { MigrationPreviewReport } from '../../engines/schema/insight/migration-preview.js';
import { policyToProto } from '../schema/schema-mapping.js';

/** A migration preview's report on the wire; `treeChanged` is judged when the status is read. */
export function migrationPreviewToProto(
  report: MigrationPreviewReport,
  treeChanged: boolean,
): WireReport {
  return create(MigrationPreviewReportSchema, {
    treeId: report.treeId,
    fromVersion: report.fromVersion,
    toVersion: report.toVersion,
    scanned: BigInt(report.scanned),
    wouldChange: BigInt(report.wouldChange),
    unchanged: BigInt(report.unchanged),
    wouldDeadLetter: BigInt(report.wouldDeadLetter),
    steps: report.steps.map((step) => ({
      fromVersion: step.fromVersion,
      toVersion: step.toVersion,
      entered: BigInt(step.entered),
      changed: BigInt(step.changed),
      failed: BigInt(step.failed),
      samples: step.samples,
    })),
    failures: report.failures.map((failure) => ({
      key: failure.key,
      reason: StoreSchemaDeadLetterReason[failure.reason],
      message: failure.message,
      fromVersion: failure.fromVersion,
      toVersion: failure.toVersion,
    })),
    policy: report.policy ? policyToProto(report.policy) : undefined,
    policyRefused: BigInt(report.policyRefused),
    policySamples: report.policySamples,
    treeSequence: BigInt(report.treeSequence),
    evaluatedAt: timestampFromMs(report.evaluatedAt),
    treeChanged,
  });
}
