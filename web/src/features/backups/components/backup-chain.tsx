import type { backupV1 } from '@store/contract';
import { useBackupNames } from '../../../lib/backups/use-backup-names';
import { BackupRef } from './backup-ref';

/**
 * The chain a restore applies, drawn full → incrementals with this backup marked, then what
 * depends on it (what a delete would orphan) and the other members of its set, each by name
 * with its id to copy.
 */
export function BackupChain({ described }: { described: backupV1.BackupChainResponse }) {
  const current = described.manifest?.backupId ?? '';
  const chain = described.chainBackupIds.length > 0 ? described.chainBackupIds : [current];
  const members = described.setMemberBackupIds.filter((id) => id !== current);
  const names = useBackupNames([...chain, ...described.dependantBackupIds, ...members]);
  const nameOf = (id: string) => (id === current ? described.manifest?.name : names.get(id));
  return (
    <section className="panel" aria-labelledby="backup-chain">
      <h2 id="backup-chain" className="panel__title">
        Chain
      </h2>
      <ol className="bk-chain" aria-label="Restore chain, full backup first">
        {chain.map((id, index) => (
          <li key={id} className="bk-chain__link">
            <span className="bk-chain__role">{index === 0 ? 'Full' : `Incremental ${index}`}</span>
            <BackupRef id={id} name={nameOf(id)} current={id === current} />
          </li>
        ))}
      </ol>
      <h3 className="bk-subtitle">Depending on this backup</h3>
      {described.dependantBackupIds.length === 0 ? (
        <p className="muted">No incremental builds on it.</p>
      ) : (
        <ul className="bk-refs" aria-label="Dependant backups">
          {described.dependantBackupIds.map((id) => (
            <li key={id}>
              <BackupRef id={id} name={nameOf(id)} />
            </li>
          ))}
        </ul>
      )}
      {described.setMemberBackupIds.length > 0 && (
        <>
          <h3 className="bk-subtitle">Other members of its set</h3>
          <ul className="bk-refs" aria-label="Set members">
            {members.map((id) => (
              <li key={id}>
                <BackupRef id={id} name={nameOf(id)} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
