// Device Control data: stats, free outputs and the calls that change devices (as mutations). Keys
// start with 'devices', so the realtime device events refresh them with the shared device list.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddableDeviceType, AutomationRules, ControlAction, ControlLog, Device, DeviceStats } from '../../../server/contract/device.ts';
import { api, ApiError } from './client.ts';
import { POLL_INTERVAL_MS, useGreenhouseId } from './queries.ts';

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
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: ['devices', 'stats', greenhouseId],
    queryFn: async ({ signal }) => {
      const stats = await api.get<DeviceStats>(`/api/devices/stats/${greenhouseId}`, { signal });
      if (!stats || !Array.isArray(stats.byType)) throw new ApiError('Unexpected answer from the gateway', 200);
      return stats;
    },
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useFreeOutputs(enabled: boolean) {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: ['devices', 'free-outputs', greenhouseId],
    queryFn: ({ signal }) => api.get<FreeOutput[]>(`/api/devices/free-outputs/${greenhouseId}`, { signal }),
    enabled,
  });
}

const device = (deviceId: string) => `/api/devices/${encodeURIComponent(deviceId)}`;

/** Every device call as a mutation; each refreshes the device queries when it is settled. */
export function useDeviceCommands() {
  const queryClient = useQueryClient();
  const greenhouseId = useGreenhouseId();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: ['devices'] });
  const control = useMutation({
    mutationFn: ({ deviceId, action }: { deviceId: string; action: ControlAction }) =>
      api.request<{ device: Device; controlLog: ControlLog }>('POST', `${device(deviceId)}/control`, { action }),
    onSettled,
  });
  const add = useMutation({ mutationFn: (body: NewDevice) => api.request<Device>('POST', '/api/devices', body), onSettled });
  const remove = useMutation({ mutationFn: (deviceId: string) => api.request<unknown>('DELETE', device(deviceId)), onSettled });
  const automation = useMutation({
    mutationFn: ({ deviceId, ...body }: { deviceId: string; automationRules: AutomationRules; autoMode: boolean } & Pick<Partial<Device>, 'sensorLossAction' | 'sensorLossDutyPct'>) =>
      api.request<Device>('POST', `${device(deviceId)}/automation`, body),
    onSettled,
  });
  const quick = useMutation({
    mutationFn: (action: 'turn-off-all' | 'enable-auto' | 'optimize-power') =>
      api.request<{ devicesTurnedOff?: number; devicesEnabled?: number; autoModeDisabled?: number; powerSavedW?: number }>(
        'POST',
        `/api/devices/actions/${action}/${greenhouseId}`,
      ),
    onSettled,
  });
  return {
    control: (deviceId: string, action: ControlAction) => control.mutateAsync({ deviceId, action }),
    add: (body: NewDevice) => add.mutateAsync(body),
    remove: (deviceId: string) => remove.mutateAsync(deviceId),
    saveAutomation: (deviceId: string, automationRules: AutomationRules, autoMode: boolean, extra: Pick<Partial<Device>, 'sensorLossAction' | 'sensorLossDutyPct'> = {}) =>
      automation.mutateAsync({ deviceId, automationRules, autoMode, ...extra }),
    turnOffAll: () => quick.mutateAsync('turn-off-all'),
    enableAuto: () => quick.mutateAsync('enable-auto'),
    optimizePower: () => quick.mutateAsync('optimize-power'),
  };
}
