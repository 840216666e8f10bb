import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import type { UnrecordedAlert } from '../../../../server/alerts/alert-service.ts';
import type { Severity } from '../../../../server/contract/alert.ts';
import { EventBus } from '../../../../server/events/bus.ts';
import type { ChannelRow } from '../../../../server/notifications/channels-repo.ts';
import type { ChannelSender } from '../../../../server/notifications/kinds/types.ts';
import { UnrecordedAlerts } from '../../../../server/notifications/unrecorded-alerts.ts';

/** Local noon: inside quiet hours of 00:00-23:59 in any time zone. */
const NOON = new Date(2026, 5, 2, 12, 0).getTime();

function channel(channelId: string, minSeverity: Severity, quiet = false): ChannelRow {
  return {
    channelId, kind: 'webhook', target: `http://127.0.0.1/${channelId}`, minSeverity, secret: null,
    quietFrom: quiet ? '00:00' : null, quietTo: quiet ? '23:59' : null,
  } as ChannelRow;
}

function setUp(rows: ChannelRow[]) {
  const clock = new ManualClock(NOON);
  const bus = new EventBus({ error: () => {} });
  const sent: string[] = [];
  const sender: ChannelSender = {
    kind: 'webhook',
    validate: () => {},
    send: async ({ channel: to, message }) => {
      sent.push(`${to.channelId}: ${message.title}`);
      return 'HTTP 200';
    },
  };
  const unrecorded = new UnrecordedAlerts({
    bus, clock, channels: { list: () => rows }, senders: new Map([['webhook', sender]]), logger: pino({ level: 'silent' }),
    greenhouseId: 'gh-1', publicUrl: () => 'http://gateway.local', attemptTimeoutMs: 1_000,
  });
  unrecorded.start();
  const raise = async (severity: Severity, alertType = 'TEMPERATURE_LOW') => {
    const alert: UnrecordedAlert = { alertType, severity, message: 'Temperature 1 °C is below the low threshold of 10 °C', deviceId: null, raisedAtMs: clock.now() };
    bus.emit('alertUnrecorded', { alert, error: 'attempt to write a readonly database' });
    await unrecorded.stop();
    unrecorded.start();
  };
  return { sent, raise };
}

describe('UnrecordedAlerts', () => {
  it('sends to the channels at or above their minimum severity, and past quiet hours only a CRITICAL', async () => {
    const { sent, raise } = setUp([channel('all', 'LOW'), channel('high', 'HIGH'), channel('night', 'LOW', true)]);
    await raise('MEDIUM');
    expect(sent).toEqual(['all: MEDIUM: TEMPERATURE LOW']);
    await raise('CRITICAL');
    expect(sent.slice(1).sort()).toEqual(['all: CRITICAL: TEMPERATURE LOW', 'high: CRITICAL: TEMPERATURE LOW', 'night: CRITICAL: TEMPERATURE LOW']);
  });
});
