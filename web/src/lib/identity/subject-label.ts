/**
 * A subject as people read it. The server records who did something as a subject string
 * (`token:<id>`, `oidc:<sub>`, or a name for its own work: `scheduler`, `health-monitor`, `cli`);
 * only the caller's own subject comes with a display name (WhoAmI), so the others are named by
 * their readable part. The raw subject stays available as the secondary text.
 */
export interface SubjectLabel {
  /** What a "By" column shows. */
  name: string;
  /** The subject as recorded, when the name is not simply it. */
  subject: string | null;
}

const SYSTEM_SUBJECTS: Readonly<Record<string, string>> = {
  scheduler: 'Scheduler',
  'health-monitor': 'Health monitor',
  retention: 'Automatic retention',
  cli: 'Token command line',
  anonymous: 'Anonymous',
};

export function subjectLabel(
  subject: string,
  me?: { subject: string; displayName: string } | undefined,
): SubjectLabel {
  if (me && subject === me.subject) {
    return { name: `${me.displayName || subject} (you)`, subject };
  }
  const system = SYSTEM_SUBJECTS[subject];
  if (system) return { name: system, subject };
  const [kind, rest] = splitOnce(subject);
  if (kind === 'token' && rest) return { name: `API token ${rest}`, subject };
  if (kind === 'oidc' && rest) return { name: `${rest} (single sign-on)`, subject };
  return { name: subject, subject: null };
}

function splitOnce(subject: string): [string, string] {
  const at = subject.indexOf(':');
  return at < 0 ? [subject, ''] : [subject.slice(0, at), subject.slice(at + 1)];
}
