import { invalidArgument } from '../errors.js';
import type { TokenInfo } from './api-tokens.js';
import type { Principal } from './principal.js';

/** A recorded subject with the name people know it by. */
export interface SubjectName {
  subject: string;
  displayName: string;
  kind: 'token' | 'oidc' | 'system' | 'unknown';
  /** False when no name is known and displayName only restates the subject. */
  named: boolean;
}

/** How many subjects one call may ask about (a page of operations or audit records). */
export const MAX_SUBJECTS = 200;
const MAX_SUBJECT_LENGTH = 512;

/** Subjects the server records for its own work (operation created_by, audit records). */
const SYSTEM_NAMES: Readonly<Record<string, string>> = {
  scheduler: 'Scheduler',
  'health-monitor': 'Health monitor',
  // The retention apply that runs by itself after a scheduled capture.
  retention: 'Automatic retention',
  cli: 'Token command line',
  anonymous: 'Anonymous',
};

/** What the directory reads of a token: its public facts, never the secret. */
export interface TokenDirectory {
  describe(id: string): Promise<TokenInfo | undefined>;
}

/**
 * Names for subjects. An API token is named by its name, but only for callers of the token's own
 * tenant (a token name says something about another tenant's setup); an OIDC user is named only
 * when it is the caller (the server keeps no directory of users), otherwise by its `sub`.
 */
export class SubjectDirectory {
  constructor(private readonly tokens: TokenDirectory) {}

  async resolve(
    subjects: readonly string[],
    tenant: string,
    caller: Principal,
  ): Promise<SubjectName[]> {
    if (subjects.length > MAX_SUBJECTS) {
      throw invalidArgument('subjects', `at most ${MAX_SUBJECTS} per call, got ${subjects.length}`);
    }
    subjects.forEach((subject, i) => {
      if (subject.length > MAX_SUBJECT_LENGTH) {
        throw invalidArgument(`subjects[${i}]`, `is longer than ${MAX_SUBJECT_LENGTH} characters`);
      }
    });
    const distinct = [...new Set(subjects)];
    return Promise.all(distinct.map((subject) => this.one(subject, tenant, caller)));
  }

  private async one(subject: string, tenant: string, caller: Principal): Promise<SubjectName> {
    const system = SYSTEM_NAMES[subject];
    if (system) return { subject, displayName: system, kind: 'system', named: true };
    const colon = subject.indexOf(':');
    const kind = colon < 0 ? '' : subject.slice(0, colon);
    const rest = colon < 0 ? '' : subject.slice(colon + 1);
    const own = !caller.anonymous && subject === caller.subject;
    if (kind === 'token' && rest) {
      const token = await this.tokens.describe(rest);
      if (token && token.tenant === tenant && token.name) {
        return { subject, displayName: token.name, kind: 'token', named: true };
      }
      if (own) return { subject, displayName: caller.displayName, kind: 'token', named: true };
      return { subject, displayName: `API token ${rest}`, kind: 'token', named: false };
    }
    if (kind === 'oidc' && rest) {
      if (own) return { subject, displayName: caller.displayName, kind: 'oidc', named: true };
      return { subject, displayName: rest, kind: 'oidc', named: false };
    }
    return { subject, displayName: subject, kind: 'unknown', named: false };
  }
}
