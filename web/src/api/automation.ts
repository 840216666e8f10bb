// calls: the rule preview, the estimated daily light integral, the hardware mode and the
// simulator's control API. Kept apart from the shared data layer so each screen imports only these.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AutomationPreview, AutomationRules } from '../../../server/contract/device.ts';
import type { LightIntegralDay, SensorType } from '../../../server/contract/reading.ts';
import type { SimulatedFault, SimulatorState } from '../../../server/contract/simulator.ts';
import { api } from './client.ts';
import { notYetRetryMs, POLL_INTERVAL_MS, useGreenhouseId } from './queries.ts';

export const automationKeys = {
  health: ['health'] as const,
  lightIntegral: (greenhouseId: string, days: number) => ['sensors', 'light-integral', greenhouseId, days] as const,
  simulator: ['simulator'] as const,
};

/**
 * How long the dashboard waits for a rule preview. A week of readings sampled every second takes one to
 * two minutes on a single Pi core (docs/performance.md); the gateway caps previews and stops one whose
 * client has gone, so waiting costs it nothing more.
 */
export const PREVIEW_TIMEOUT_MS = 5 * 60_000;

/** What the rules would have done over the last `hours` of recorded readings (touches nothing). */
export function previewAutomation(deviceId: string, automationRules: Partial<AutomationRules>, hours: number): Promise<AutomationPreview> {
  return api.post<AutomationPreview>(`/api/devices/${encodeURIComponent(deviceId)}/automation/preview`, { automationRules, hours }, { timeoutMs: PREVIEW_TIMEOUT_MS });
}

export function useLightIntegral(days: number) {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: automationKeys.lightIntegral(greenhouseId, days),
    queryFn: ({ signal }) => api.get<LightIntegralDay[]>(`/api/sensors/light-integral/${greenhouseId}?days=${days}`, { signal }),
    refetchInterval: (query) => notYetRetryMs(query.state.error) || 5 * 60_000,
  });
}

/** 'simulator' or 'raspberry-pi', from the health answer (its details need the token). */
export function useHardwareMode(): 'simulator' | 'raspberry-pi' | null {
  const query = useQuery({
    queryKey: automationKeys.health,
    queryFn: ({ signal }) => api.get<{ hardwareMode: 'simulator' | 'raspberry-pi' }>('/api/health', { signal }),
    staleTime: Infinity,
  });
  return query.data?.hardwareMode ?? null;
}

export function useSimulatorState(enabled: boolean) {
  return useQuery({
    queryKey: automationKeys.simulator,
    queryFn: ({ signal }) => api.get<SimulatorState>('/api/simulator', { signal }),
    enabled,
    refetchInterval: Math.min(POLL_INTERVAL_MS, 5000),
  });
}

export function useSimulatorCommands() {
  const queryClient = useQueryClient();
  const adopt = useCallback((state: SimulatorState) => queryClient.setQueryData(automationKeys.simulator, state), [queryClient]);
  return {
    setFault: async (sensor: SensorType, fault: SimulatedFault) => adopt(await api.post<SimulatorState>('/api/simulator/faults', { sensor, fault })),
    setTank: async (levelCm: number) => adopt(await api.post<SimulatorState>('/api/simulator/tank', { levelCm })),
  };
}
