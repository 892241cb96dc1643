import {
  BackupControlService,
  BackupInsightService,
  BackupLifecycleService,
  IdentityService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { rpcMethodWords } from '../../../lib/words';

/** Services whose calls the audit trail records; the method filter offers their RPCs in words. */
const AUDITED_SERVICES = [
  BackupControlService,
  SchemaControlService,
  TreeDataService,
  BackupInsightService,
  SchemaInsightService,
  IdentityService,
  BackupLifecycleService,
];

/**
 * Records the server writes about work it did by itself, not calls: each backup retention
 * deleted, and each automatic retention apply that stopped instead of deleting.
 */
const SERVER_RECORDS = ['RetentionDelete', 'RetentionApplyStopped'];

export interface MethodChoice {
  /** The RPC name the server filters on ("StartAdvanceAndMigrate"). */
  value: string;
  /** "Advance and migrate". */
  label: string;
}

/** Every audited RPC, once each, by its words (two RPCs with the same words show their name). */
export function auditMethodChoices(): MethodChoice[] {
  const names = [
    ...new Set([
      ...AUDITED_SERVICES.flatMap((s) => s.methods.map((m) => m.name)),
      ...SERVER_RECORDS,
    ]),
  ];
  const choices = names.map((name) => ({ value: name, label: rpcMethodWords(name).words }));
  const seen = new Map<string, number>();
  for (const choice of choices) seen.set(choice.label, (seen.get(choice.label) ?? 0) + 1);
  return choices
    .map((choice) =>
      (seen.get(choice.label) ?? 0) > 1
        ? { ...choice, label: `${choice.label} (${choice.value})` }
        : choice,
    )
    .sort((a, b) => a.label.localeCompare(b.label));
}
