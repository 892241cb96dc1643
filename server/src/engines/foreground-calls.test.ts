import { describe, expect, it } from 'vitest';
import { ForegroundCalls } from './foreground-calls.js';

describe('ForegroundCalls', () => {
  it("counts the time other tenants' calls were in flight, overlaps once, the tenant's own left out", () => {
    let now = 0;
    const calls = new ForegroundCalls(() => now);
    const b = calls.follow('b');
    const first = calls.begin('a');
    now = 10;
    const second = calls.begin('a');
    now = 15;
    first();
    first(); // a second end changes nothing
    now = 20;
    expect(b.othersBusyMs()).toBe(20);
    second();
    now = 50;
    const own = calls.begin('b');
    now = 80;
    own();
    expect(b.othersBusyMs()).toBe(20);
    const anonymous = calls.begin();
    now = 85;
    expect(b.othersBusyMs()).toBe(25);
    anonymous();
    expect(b.othersBegun()).toBe(3);
    b.release();
  });

  it('a call begun before the tenant was followed ends cleanly; a released tenant is forgotten', () => {
    let now = 0;
    const calls = new ForegroundCalls(() => now);
    const early = calls.begin('b');
    const b = calls.follow('b');
    now = 10;
    early();
    expect(b.othersBusyMs()).toBe(10);
    b.release();
    b.release();
    const again = calls.follow('b');
    expect(again.othersBusyMs()).toBe(0);
    again.release();
  });

  it("the tenant's own calls overlapping others' do not hide them (its flood of starts)", () => {
    let now = 0;
    const calls = new ForegroundCalls(() => now);
    const b = calls.follow('b');
    const others = calls.begin('a');
    const own = calls.begin('b');
    now = 100;
    // a was in flight all along, b too: a's whole time counts.
    expect(b.othersBusyMs()).toBe(100);
    others();
    now = 150;
    expect(b.othersBusyMs()).toBe(100);
    own();
    b.release();
  });
});
