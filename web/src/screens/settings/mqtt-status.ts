// The MQTT bridge line of Settings > System, from /api/health's `mqtt` (docs/decisions.md, Fleet).
import type { MqttStatus } from '../../../../server/contract/fleet.ts';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** One sentence a grower can act on: off and how to turn it on, connected and where, or away and why. */
export function mqttStatusText(status: MqttStatus | undefined): string {
  if (!status || !status.enabled) return 'MQTT bridge: off. Set mqtt.url (or GREENHOUSE_MQTT_URL) to join a broker; see docs/fleet.md.';
  const where = `${status.broker ?? 'the broker'} as ${status.topicRoot ?? '?'}`;
  const discovery = status.discovery ? 'Home Assistant discovery on' : 'Home Assistant discovery off';
  if (status.state === 'connected') {
    const commands = status.commandsIgnored ? ` Commands from the broker are ignored: ${status.commandsIgnored}.` : '';
    return `MQTT bridge: connected to ${where}, ${discovery}, ${status.published} messages sent.${commands}`;
  }
  if (status.state === 'connecting') return `MQTT bridge: connecting to ${where}…`;
  const parts = [`MQTT bridge: cannot reach ${where}`];
  if (status.lastError) parts[0] += ` (${status.lastError})`;
  if (status.nextAttemptAt) parts.push(`next try at ${time(status.nextAttemptAt)}`);
  parts.push(`${status.queued} messages waiting${status.dropped > 0 ? `, ${status.dropped} dropped` : ''}; sampling and control go on.`);
  return parts.join(', ');
}
