import { describe, expect, it } from 'vitest';
import { subjectLabel } from './subject-label';

describe('subjectLabel', () => {
  const me = { subject: 'token:abc123', displayName: 'ops laptop' };

  it('names the caller by their display name', () => {
    expect(subjectLabel('token:abc123', me)).toEqual({
      name: 'ops laptop (you)',
      subject: 'token:abc123',
    });
  });

  it('names other tokens and single sign-on users by their readable part', () => {
    expect(subjectLabel('token:zzz999', me)).toEqual({
      name: 'API token zzz999',
      subject: 'token:zzz999',
    });
    expect(subjectLabel('oidc:grace')).toEqual({
      name: 'grace (single sign-on)',
      subject: 'oidc:grace',
    });
  });

  it("names the server's own work in words", () => {
    expect(subjectLabel('scheduler').name).toBe('Scheduler');
    expect(subjectLabel('health-monitor').name).toBe('Health monitor');
    expect(subjectLabel('retention').name).toBe('Automatic retention');
    expect(subjectLabel('cli').name).toBe('Token command line');
  });

  it('keeps an unknown shape as it is, without repeating it', () => {
    expect(subjectLabel('someone')).toEqual({ name: 'someone', subject: null });
  });
});
