import { useSubjectName } from '../../lib/identity/use-subject-name';

/**
 * Who did something ("By", "Started by", "Created by"): a readable name (a token's name, the
 * caller's own, the scheduler), the recorded subject below it in monospace (what audit filters
 * and logs use).
 */
export function SubjectName({ subject }: { subject: string }) {
  const label = useSubjectName(subject);
  if (!subject) return <span className="muted">—</span>;
  return (
    <span className="subject-name" title={label.subject ?? undefined}>
      {label.name}
      {label.subject && <span className="mono muted table__sub">{label.subject}</span>}
    </span>
  );
}
