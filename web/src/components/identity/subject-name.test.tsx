import type { ConnectRouter } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../testing/fixtures';
import { createTestApp, testSession, wrapperFor } from '../../testing/render-app';
import { SubjectName } from './subject-name';

function renderSubjects(subjects: string[], routes: (router: ConnectRouter) => void) {
  const Wrapper = wrapperFor(createTestApp(routes, { session: testSession }));
  return render(
    <Wrapper>
      <ul>
        {subjects.map((subject) => (
          <li key={subject}>
            <SubjectName subject={subject} />
          </li>
        ))}
      </ul>
    </Wrapper>,
  );
}

describe('SubjectName', () => {
  it("shows the server's names, asking once for all subjects on screen", async () => {
    const asked: string[][] = [];
    renderSubjects(['token:t-1', 'token:t-2', 'scheduler'], (router) =>
      router.service(IdentityService, {
        whoAmI: () => whoAmI(),
        resolveSubjects: ({ subjects }) => {
          asked.push(subjects);
          const names: Record<string, string> = {
            'token:t-1': 'alice laptop',
            'token:t-2': 'ops laptop',
            scheduler: 'Scheduler',
          };
          return {
            subjects: subjects.map((subject) => ({
              subject,
              displayName: names[subject] ?? subject,
              kind: 'token',
              named: subject in names,
            })),
          };
        },
      }),
    );
    expect(await screen.findByText('ops laptop')).toBeTruthy();
    expect(await screen.findByText('alice laptop (you)')).toBeTruthy();
    expect(screen.getByText('token:t-2').className).toContain('mono');
    expect(asked).toEqual([['token:t-1', 'token:t-2', 'scheduler']]);
  });

  it('names subjects by their readable part when the server cannot (an older server)', async () => {
    renderSubjects(['token:t-1', 'token:t-9'], (router) =>
      router.service(IdentityService, { whoAmI: () => whoAmI() }),
    );
    expect(await screen.findByText('Alice Admin (you)')).toBeTruthy();
    expect(screen.getByText('API token t-9')).toBeTruthy();
  });
});
