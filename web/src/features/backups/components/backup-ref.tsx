import { Link } from 'react-router';
import { CopyableId } from '../../../components/ui/copyable-id';
import { paths } from '../../../lib/paths';

/**
 * A backup named by its name, linked to its page, with its id below to copy. Until the name is
 * known (or when the backup is gone) the id stands in for it.
 */
export function BackupRef({
  id,
  name,
  current = false,
}: {
  id: string;
  name: string | undefined;
  /** The page's own backup: not a link, marked as the current one. */
  current?: boolean;
}) {
  const shown = name || id;
  return (
    <span className="backup-ref">
      {current ? (
        <strong className="truncate" aria-current="true" title={shown} tabIndex={0}>
          {shown} (this backup)
        </strong>
      ) : (
        <Link className="truncate" to={paths.backup(id)} title={shown}>
          {shown}
        </Link>
      )}
      {name && <CopyableId id={id} label="backup id" />}
    </span>
  );
}
