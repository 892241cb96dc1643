import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Time } from './time';

describe('Time', () => {
  it('shows local time with the ISO instant and UTC on hover', () => {
    const { container } = render(<Time value={new Date(Date.UTC(2025, 4, 1, 12, 30, 5))} />);
    const time = container.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe('2025-05-01T12:30:05.000Z');
    expect(time?.getAttribute('title')).toBe('UTC 2025-05-01 12:30:05');
  });

  it('shows the fallback when the time is not set', () => {
    render(<Time value={undefined} fallback="Not started yet" />);
    expect(screen.getByText('Not started yet')).toBeTruthy();
  });
});
