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

  it('compact: a short day and minute in the cell, the full local time and UTC in the title', () => {
    const at = new Date(Date.UTC(new Date().getFullYear(), 10, 26, 3, 41, 7));
    const { container } = render(<Time value={at} compact />);
    const time = container.querySelector('time');
    expect(time?.textContent).not.toBe('');
    expect(time?.textContent).not.toMatch(/:07|\d{4}/);
    expect(time?.getAttribute('title')).toContain(
      'UTC ' + at.toISOString().slice(0, 19).replace('T', ' '),
    );
    expect(time?.getAttribute('title')).toContain(at.getFullYear().toString());
  });
});
