import type { backupV1 } from '@store/contract';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';

/**
 * The chain a restore applies, drawn full → incrementals with this backup marked, then what
 * depends on it (what a delete would orphan) and the other members of its set.
 */
export function BackupChain({ described }: { described: backupV1.BackupChainResponse }) {
  const current = described.manifest?.backupId ?? '';
  const chain = described.chainBackupIds.length > 0 ? described.chainBackupIds : [current];
  const members = described.setMemberBackupIds.filter((id) => id !== current);
  return (
    <section className="panel" aria-labelledby="backup-chain">
      <h2 id="backup-chain" className="panel__title">
        Chain
      </h2>
      <ol className="bk-chain" aria-label="Restore chain, full backup first">
        {chain.map((id, index) => (
          <li key={id} className="bk-chain__link">
            <span className="bk-chain__role">{index === 0 ? 'Full' : `Incremental ${index}`}</span>
            {id === current ? (
              <strong className="mono" aria-current="true">
                {id} (this backup)
              </strong>
            ) : (
              <Link className="mono" to={paths.backup(id)}>
                {id}
              </Link>
            )}
          </li>
        ))}
      </ol>
      <h3 className="bk-subtitle">Depending on this backup</h3>
      {described.dependantBackupIds.length === 0 ? (
        <p className="muted">No incremental builds on it.</p>
      ) : (
        <ul className="inline-list" aria-label="Dependant backups">
          {described.dependantBackupIds.map((id) => (
            <li key={id}>
              <Link className="mono" to={paths.backup(id)}>
                {id}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {described.setMemberBackupIds.length > 0 && (
        <>
          <h3 className="bk-subtitle">Other members of its set</h3>
          <ul className="inline-list" aria-label="Set members">
            {members.map((id) => (
              <li key={id}>
                <Link className="mono" to={paths.backup(id)}>
                  {id}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
