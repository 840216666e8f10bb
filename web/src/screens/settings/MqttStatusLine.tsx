// Settings > System: where the MQTT bridge stands (GET /api/health, polled while the tab is open).
import { useQuery } from '@tanstack/react-query';
import type { MqttStatus } from '../../../../server/contract/fleet.ts';
import { api } from '../../api/client.ts';
import { mqttStatusText } from './mqtt-status.ts';

const POLL_MS = 10_000;

export function MqttStatusLine() {
  const query = useQuery({
    queryKey: ['health', 'mqtt'],
    queryFn: ({ signal }) => api.get<{ mqtt?: MqttStatus }>('/api/health', { signal }),
    refetchInterval: POLL_MS,
    retry: false,
  });
  if (query.isPending) return null;
  const text = query.isError ? 'MQTT bridge: status unavailable (the gateway did not answer).' : mqttStatusText(query.data.mqtt);
  return (
    <p className="settings-note" data-testid="mqtt-status">
      {text}
    </p>
  );
}
