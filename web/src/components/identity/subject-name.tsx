import { useWhoAmIQuery } from '../../lib/identity/use-who-am-i-query';
import { subjectLabel } from '../../lib/identity/subject-label';

/**
 * Who did something ("By", "Started by", "Created by"): a readable name, the recorded subject
 * below it in monospace (what audit filters and logs use).
 */
export function SubjectName({ subject }: { subject: string }) {
  const who = useWhoAmIQuery();
  if (!subject) return <span className="muted">—</span>;
  const label = subjectLabel(subject, who.data);
  return (
    <span className="subject-name" title={label.subject ?? undefined}>
      {label.name}
      {label.subject && <span className="mono muted table__sub">{label.subject}</span>}
    </span>
  );
}
