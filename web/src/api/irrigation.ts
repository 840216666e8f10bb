// Water by the soil: a pump's water per day, and saving its flow rate. Keys start with 'devices', so a
// device event refreshes them with the device list (a pulse ends: today's row grows).
import { useQuery } from '@tanstack/react-query';
import type { WaterDay } from '../../../server/contract/irrigation.ts';
import type { Device } from '../../../server/contract/device.ts';
import { api } from './client.ts';
import { POLL_INTERVAL_MS } from './queries.ts';

export const waterKey = (deviceId: string, days: number) => ['devices', 'water', deviceId, days] as const;

/** Pulses, run time and litres per local day, oldest first (GET /api/devices/:deviceId/water). */
export function useWater(deviceId: string, days: number) {
  return useQuery({
    queryKey: waterKey(deviceId, days),
    queryFn: ({ signal }) => api.get<WaterDay[]>(`/api/devices/${encodeURIComponent(deviceId)}/water?days=${days}`, { signal }),
    refetchInterval: POLL_INTERVAL_MS,
  });
}

/** A pump's litres per minute (null: back to its output's configured flow). */
export async function saveFlow(deviceId: string, flowLitresPerMinute: number | null): Promise<void> {
  await api.request<Device>('PUT', `/api/devices/${encodeURIComponent(deviceId)}`, { flowLitresPerMinute });
}
