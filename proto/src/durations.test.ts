import { create } from '@bufbuild/protobuf';
import { DurationSchema, type Duration } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { BackupControlService } from '../gen/store/backup/v1/backup_service_pb.js';
import { createBackupClient } from './clients/backup-client.js';
import { durationFromMs, durationToMs } from './durations.js';
import { createRecordingTransport } from './testing/recording-transport.js';

const parts = (d: Duration) => [Number(d.seconds), d.nanos];

// docs/contract.md, "Durations for ticks": the spec's five *_ticks fields are Durations on the
// wire; the typed clients speak milliseconds.
describe('durations for the spec’s ticks', () => {
  it('whole milliseconds convert exactly both ways', () => {
    expect(parts(durationFromMs(86_400_000))).toEqual([86_400, 0]);
    expect(parts(durationFromMs(1_500))).toEqual([1, 500_000_000]);
    expect(durationToMs(durationFromMs(3_600_001))).toBe(3_600_001);
  });

  it('a sub-millisecond fraction sent by a client is rounded up to the next millisecond, so a positive interval never becomes zero', () => {
    expect(parts(durationFromMs(0.2))).toEqual([0, 1_000_000]);
    expect(parts(durationFromMs(0.0001))).toEqual([0, 1_000_000]); // one 100 ns tick
    expect(parts(durationFromMs(1_500.4))).toEqual([1, 501_000_000]);
  });

  it('a received Duration is read exactly: sub-millisecond and sub-tick nanoseconds stay as the fraction', () => {
    expect(durationToMs(create(DurationSchema, { seconds: 0n, nanos: 100 }))).toBe(0.0001);
    expect(durationToMs(create(DurationSchema, { seconds: 2n, nanos: 500_050 }))).toBeCloseTo(
      2_000.50005,
      9,
    );
    expect(durationToMs(undefined)).toBe(0);
  });

  it('the typed client sends a 0.25 ms schedule as 1 ms (it used to send a zero Duration, which the server refuses)', async () => {
    const { transport, calls } = createRecordingTransport(BackupControlService, {
      scheduleBackup: (req) => ({ scheduled: true, effectiveInterval: req.interval }),
      configureBackupHealth: () => ({}),
    });
    const client = createBackupClient(transport);
    expect(await client.scheduleBackup({ treeId: 'orders' }, false, 0.25)).toBe(1);
    await client.configureBackupHealth('bk_1', { monitoringEnabled: true, intervalMs: 0.5 });
    const sent = calls.map((call) => (call.message as { interval?: Duration }).interval);
    expect(sent.map((d) => d && parts(d))).toEqual([
      [0, 1_000_000],
      [0, 1_000_000],
    ]);
  });
});
