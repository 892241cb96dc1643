import { useParams } from 'react-router';
import { PlaceholderPage } from '../../../components/ui/placeholder-page';

/** /backups/:backupId — one backup. Not built yet. */
export function BackupDetailPage() {
  const { backupId = '' } = useParams();
  return (
    <PlaceholderPage title={`Backup ${backupId}`}>
      The manifest of this backup and its chain (base, dependants, set members), artifact export,
      health report, restore (in place, new tree, shadow) and delete (with cascade, explaining why a
      delete is refused).
    </PlaceholderPage>
  );
}
