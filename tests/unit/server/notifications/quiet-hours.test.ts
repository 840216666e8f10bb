import { describe, expect, it } from 'vitest';
import { inQuietHours } from '../../../../server/notifications/quiet-hours.ts';

/** Epoch ms of a local time today (quiet hours are the gateway's local time). */
const at = (hh: number, mm: number) => new Date(2026, 5, 1, hh, mm).getTime();

describe('inQuietHours', () => {
  it('a window crossing midnight: from inside, to outside', () => {
    const night = { from: '22:00', to: '06:30' };
    expect(inQuietHours(night, at(21, 59))).toBe(false);
    expect(inQuietHours(night, at(22, 0))).toBe(true);
    expect(inQuietHours(night, at(2, 0))).toBe(true);
    expect(inQuietHours(night, at(6, 29))).toBe(true);
    expect(inQuietHours(night, at(6, 30))).toBe(false);
    expect(inQuietHours(night, at(12, 0))).toBe(false);
  });

  it('a window within a day', () => {
    const lunch = { from: '12:00', to: '13:00' };
    expect(inQuietHours(lunch, at(11, 59))).toBe(false);
    expect(inQuietHours(lunch, at(12, 30))).toBe(true);
    expect(inQuietHours(lunch, at(13, 0))).toBe(false);
  });

  it('no quiet hours: never quiet', () => {
    expect(inQuietHours(null, at(3, 0))).toBe(false);
  });
});
