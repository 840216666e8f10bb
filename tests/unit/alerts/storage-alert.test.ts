import { describe, expect, it } from 'vitest';
import { evaluateStorage, STORAGE_CLEAR_BYTES, STORAGE_CRITICAL_BYTES, STORAGE_LOW_BYTES } from '../../../server/alerts/storage-alert.ts';
import type { ActiveAlertView } from '../../../server/alerts/evaluator.ts';

const MIB = 1024 * 1024;
const TOTAL = 15_000 * MIB;
const check = (freeMb: number, active: ReadonlyMap<string, ActiveAlertView> = new Map()) =>
  evaluateStorage({ dir: '/var/lib/greenhouse', freeBytes: freeMb * MIB, totalBytes: TOTAL }, active);
const activeAs = (severity: ActiveAlertView['severity']) => new Map([['storage:low', { id: 7, causeKey: 'storage:low', severity }]]);

describe('STORAGE_LOW', () => {
  it('thresholds: warn under 256 MB, critical under 64 MB, resolved above 512 MB', () => {
    expect([STORAGE_LOW_BYTES, STORAGE_CRITICAL_BYTES, STORAGE_CLEAR_BYTES].map((b) => b / MIB)).toEqual([256, 64, 512]);
  });

  it('nothing while there is room', () => {
    expect(check(4000)).toEqual({ raise: [], escalate: [], resolve: [], clearAcknowledged: [] });
    expect(check(256).raise).toEqual([]);
  });

  it('raises HIGH under 256 MB, saying what a full disk stops and where', () => {
    const [draft] = check(255).raise;
    expect(draft).toMatchObject({ causeKey: 'storage:low', alertType: 'STORAGE_LOW', severity: 'HIGH', deviceId: null, value: 255, threshold: 256 });
    expect(draft!.message).toBe(
      'Storage almost full: 255 MB free of 14.6 GB on the data disk (/var/lib/greenhouse). When it is full, switches, readings and alerts can no longer be recorded. Free some space or use a larger card.',
    );
  });

  it('raises CRITICAL at once under 64 MB, and escalates a HIGH one in place', () => {
    expect(check(63).raise[0]).toMatchObject({ severity: 'CRITICAL', threshold: 64 });
    const escalated = check(40, activeAs('HIGH'));
    expect(escalated.raise).toEqual([]);
    expect(escalated.escalate).toEqual([expect.objectContaining({ id: 7, severity: 'CRITICAL', value: 40 })]);
    expect(check(40, activeAs('CRITICAL')).escalate).toEqual([]);
  });

  it('stays until there are 512 MB free, so a disk at the edge does not raise it again and again', () => {
    expect(check(300, activeAs('HIGH'))).toEqual({ raise: [], escalate: [], resolve: [], clearAcknowledged: [] });
    expect(check(511, activeAs('CRITICAL')).resolve).toEqual([]);
    expect(check(600, activeAs('CRITICAL')).resolve).toEqual([{ id: 7, causeKey: 'storage:low', actionTaken: 'Auto-resolved: 600 MB free on the data disk' }]);
  });
});
