import { describe, expect, it } from 'vitest';
import { TenantSlots } from './tenant-slots.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TenantSlots', () => {
  it('lets one tenant hold all threads but one, so another tenant is served at once', async () => {
    const slots = new TenantSlots(3);
    const held = [await slots.acquire('a'), await slots.acquire('a')];
    let third = false;
    void slots.acquire('a').then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    // The last thread goes to tenant b while a's third call waits.
    const b = await slots.acquire('b');
    expect(third).toBe(false);
    held[0]!();
    await tick();
    expect(third).toBe(true);
    b();
  });

  it('serves waiting tenants in turn, each tenant in arrival order', async () => {
    const slots = new TenantSlots(2);
    const first = await slots.acquire('x');
    const second = await slots.acquire('y');
    const order: string[] = [];
    const wait = (tenant: string, label: string) =>
      slots.acquire(tenant).then((release) => {
        order.push(label);
        release();
      });
    const all = [wait('a', 'a1'), wait('a', 'a2'), wait('b', 'b1'), wait('a', 'a3')];
    first();
    second();
    await Promise.all(all);
    expect(order.indexOf('b1')).toBeLessThan(order.indexOf('a2'));
    expect(order.filter((label) => label.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
  });

  it('a tenant alone never takes more than threads - 1 (one thread is always free for others)', async () => {
    const slots = new TenantSlots(2);
    const one = await slots.acquire('a');
    let second = false;
    void slots.acquire('a').then(() => (second = true));
    await tick();
    expect(second).toBe(false);
    one();
    await tick();
    expect(second).toBe(true);
  });
});
