// Device Control data: stats, free outputs and the calls that change devices. Keys start with
// 'devices', so the realtime device events refresh them with the shared device list.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AddableDeviceType, AutomationRules, ControlAction, ControlLog, Device, DeviceStats } from '../../../server/contract/device.ts';
import { api } from './client.ts';
import { GREENHOUSE_ID, POLL_INTERVAL_MS, queryKeys } from './queries.ts';

export const deviceKeys = {
  stats: ['devices', 'stats', GREENHOUSE_ID] as const,
  freeOutputs: ['devices', 'free-outputs', GREENHOUSE_ID] as const,
};

export interface FreeOutput {
  outputId: string;
  kind: 'relay' | 'servo';
  pin: number;
}

export interface NewDevice {
  deviceName: string;
  deviceId: string;
  deviceType: AddableDeviceType;
  location: string;
  powerConsumption: number;
  outputId?: string;
}

export function useDeviceStats() {
  return useQuery({
    queryKey: deviceKeys.stats,
    queryFn: ({ signal }) => api.get<DeviceStats>(`/api/devices/stats/${GREENHOUSE_ID}`, { signal }),
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useFreeOutputs(enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.freeOutputs,
    queryFn: ({ signal }) => api.get<FreeOutput[]>(`/api/devices/free-outputs/${GREENHOUSE_ID}`, { signal }),
    enabled,
  });
}

/** Every device call; each refreshes the device queries when it is done. */
export function useDeviceCommands() {
  const queryClient = useQueryClient();
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: [queryKeys.devices[0]] }), [queryClient]);
  const after = useCallback(
    async <T,>(call: Promise<T>): Promise<T> => {
      try {
        return await call;
      } finally {
        void refresh();
      }
    },
    [refresh],
  );
  return {
    control: (deviceId: string, action: ControlAction) =>
      after(api.request<{ device: Device; controlLog: ControlLog }>('POST', `/api/devices/${encodeURIComponent(deviceId)}/control`, { action })),
    add: (device: NewDevice) => after(api.request<Device>('POST', '/api/devices', device)),
    saveAutomation: (deviceId: string, automationRules: AutomationRules, autoMode: boolean, extra: Pick<Partial<Device>, 'sensorLossAction'> = {}) =>
      after(api.request<Device>('POST', `/api/devices/${encodeURIComponent(deviceId)}/automation`, { automationRules, autoMode, ...extra })),
    turnOffAll: () => after(api.request<{ devicesTurnedOff: number }>('POST', `/api/devices/actions/turn-off-all/${GREENHOUSE_ID}`)),
    enableAuto: () => after(api.request<{ devicesEnabled: number }>('POST', `/api/devices/actions/enable-auto/${GREENHOUSE_ID}`)),
    optimizePower: () =>
      after(api.request<{ devicesTurnedOff: number; powerSavedW: number }>('POST', `/api/devices/actions/optimize-power/${GREENHOUSE_ID}`)),
  };
}
