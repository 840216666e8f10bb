// Pure helpers behind dashboard behaviour: back-off, validation messages in words, toasts
// capped, reachability, chart label spacing and summary, hourly ticks, friendly names, °F.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, retryAfterMsOf } from '../../../web/src/api/client.ts';
import { NOT_YET_RETRY_MS, notYetRetryMs } from '../../../web/src/api/queries.ts';
import { humanFailure, humanIssue } from '../../../web/src/api/human-errors.ts';
import { Reachability } from '../../../web/src/api/reachability.ts';
import { getToasts, MAX_VISIBLE_TOASTS, toast } from '../../../web/src/components/toast/toast-store.ts';
import { reconnectDelayMs } from '../../../web/src/realtime/socket-client.ts';
import { countTicks } from '../../../web/src/screens/analytics/HourlyActivity.tsx';
import { axisLabel, axisLabelWidthPx, summarize } from '../../../web/src/sensors/chart-data.ts';
import { deviceTypeName, sensorName } from '../../../web/src/names.ts';
import { toUnit } from '../../../web/src/units.ts';

describe('live link back-off', () => {
  it('doubles from 2 s and stays at 30 s for ever', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs)).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

describe('validation errors in words', () => {
  it('maps ajv wording for the fields a person fills in', () => {
    expect(humanIssue('password', 'password must NOT have fewer than 8 characters')).toBe('Password must be at least 8 characters');
    expect(humanIssue('username', 'username must match pattern "^[A-Za-z0-9_.-]+$"')).toBe(
      'Username may use only letters, digits, dots, dashes and underscores',
    );
    expect(humanIssue('email', 'email must match format "email"')).toBe('Enter a valid email address');
    expect(humanIssue('systemSettings.dataRetentionDays', 'systemSettings.dataRetentionDays must be >= 1')).toBe('Data retention (days) must be at least 1');
    expect(humanIssue('deviceName', 'deviceName is required')).toBe('Device name is required');
    expect(humanIssue('alertThresholds.temperature.high', 'something new')).toBeNull();
  });

  it('reads the first issue of a 400 body, else leaves the server message alone', () => {
    expect(humanFailure({ success: false, message: 'Invalid body: x', errors: [{ field: 'newPassword', message: 'newPassword must NOT have more than 128 characters' }] })).toBe(
      'New password must be at most 128 characters',
    );
    expect(humanFailure({ success: false, message: 'Maintenance mode is on' })).toBeNull();
    expect(humanFailure(null)).toBeNull();
  });
});

describe('toasts', () => {
  afterEach(() => {
    for (const t of getToasts()) toast.dismiss(t.id);
    vi.useRealTimers();
  });

  it('shows at most three: a new one pushes the oldest out; the same text is not stacked twice', () => {
    vi.useFakeTimers();
    for (const n of [1, 2, 3, 4]) toast.error(`Critical alert ${n}`, { durationMs: 8000 });
    expect(getToasts().map((t) => t.message)).toEqual(['Critical alert 2', 'Critical alert 3', 'Critical alert 4']);
    expect(getToasts()).toHaveLength(MAX_VISIBLE_TOASTS);
    toast.error('Critical alert 3');
    expect(getToasts().map((t) => t.message)).toEqual(['Critical alert 2', 'Critical alert 4', 'Critical alert 3']);
    vi.advanceTimersByTime(8000);
    expect(getToasts().map((t) => t.message)).toEqual([]);
  });
});

describe('reachability', () => {
  it('is unreachable from the first unanswered call until any answer, 4xx included', () => {
    let nowMs = 1000;
    const reachability = new Reachability(() => nowMs);
    const changes: Array<number | null> = [];
    reachability.subscribe(() => changes.push(reachability.getState().unreachableSinceMs));
    reachability.failed(new ApiError('Network error', 0));
    nowMs = 5000;
    reachability.failed(new ApiError('Network error', 0));
    expect(reachability.getState().unreachableSinceMs).toBe(1000);
    reachability.failed(new ApiError('Forbidden', 403));
    expect(reachability.getState().unreachableSinceMs).toBeNull();
    expect(changes).toEqual([1000, null]);
  });
});

describe('"not yet" answers (503)', () => {
  it('reads Retry-After in seconds, and nothing else', () => {
    expect(retryAfterMsOf('12')).toBe(12_000);
    expect(retryAfterMsOf(' 5 ')).toBe(5_000);
    expect(retryAfterMsOf(null)).toBeNull();
    expect(retryAfterMsOf('Fri, 27 Nov 2026 10:00:00 GMT')).toBeNull();
    expect(retryAfterMsOf('-3')).toBeNull();
  });

  it('asks again when the gateway said, within 5-60 s; every 10 s when it did not; never for other failures', () => {
    const notYet = (retryAfterMs: number | null) => new ApiError('History is being rebuilt', 503, null, 'History is being rebuilt', retryAfterMs);
    expect(notYetRetryMs(notYet(20_000))).toBe(20_000);
    expect(notYetRetryMs(notYet(1_000))).toBe(5_000);
    expect(notYetRetryMs(notYet(600_000))).toBe(60_000);
    expect(notYetRetryMs(notYet(null))).toBe(NOT_YET_RETRY_MS);
    expect(notYetRetryMs(new ApiError('Server error occurred', 500))).toBe(false);
    expect(notYetRetryMs(new ApiError('Network error', 0))).toBe(false);
    expect(notYetRetryMs(null)).toBe(false);
  });
});

describe('charts', () => {
  it('spaces time labels by the widest label of the range', () => {
    expect(axisLabelWidthPx(168)).toBeGreaterThan(axisLabelWidthPx(24));
    expect(axisLabelWidthPx(168)).toBeGreaterThanOrEqual(axisLabel(Date.UTC(2026, 11, 28, 23, 59) / 1000, 168).length * 6);
  });

  it('summarises each line in words', () => {
    const text = summarize(
      {
        series: [{ field: 'temperature', label: 'Temperature (°C)', name: 'Temperature', unit: '°C', precision: 1, color: '#000', scale: 'value' }],
        columns: [[1, 2, 3], [20.04, null, 25.46]],
      },
      24,
    );
    expect(text).toBe('Chart summary, last 24 hours. Temperature (°C): lowest 20.0, highest 25.5, latest 25.5.');
  });

  it('gives the hourly chart round y ticks from 0 to at least the largest count', () => {
    expect(countTicks(37)).toEqual([0, 20, 40]);
    expect(countTicks(120)).toEqual([0, 100, 200]);
    expect(countTicks(0)).toEqual([0]);
  });
});

describe('names and units', () => {
  it('turns codes into words a grower reads', () => {
    expect(sensorName('SOIL_MOISTURE')).toBe('Soil moisture probe');
    expect(deviceTypeName('SERVO')).toBe('Roof window');
    expect(deviceTypeName('NEW_THING')).toBe('New thing');
  });

  it('converts Celsius for display only when °F is chosen', () => {
    expect(toUnit(20, 'C')).toBe(20);
    expect(toUnit(20, 'F')).toBe(68);
    expect(toUnit(null, 'F')).toBeNull();
  });
});
