// Sensor calibration (docs/irrigation.md, "Calibration"): the ADC sensors' live raw counts, and the calls
// that set a soil probe's dry/wet counts or an LDR's reference reading. Polled every 2 s while shown, so
// the two-step screen shows the raw count settle.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SensorCalibrationView } from '../../../server/contract/calibration.ts';
import { api } from './client.ts';
import { useGreenhouseId } from './queries.ts';

const LIVE_MS = 2_000;
const key = (greenhouseId: string) => ['sensors', 'calibration', greenhouseId] as const;

export function useCalibration() {
  const greenhouseId = useGreenhouseId();
  return useQuery({
    queryKey: key(greenhouseId),
    queryFn: ({ signal }) => api.get<SensorCalibrationView[]>(`/api/sensors/calibration/${greenhouseId}`, { signal }),
    refetchInterval: LIVE_MS,
  });
}

export function useCalibrationCommands() {
  const greenhouseId = useGreenhouseId();
  const queryClient = useQueryClient();
  const path = (sensorId: string) => `/api/sensors/calibration/${greenhouseId}/${encodeURIComponent(sensorId)}`;
  const done = () => queryClient.invalidateQueries({ queryKey: key(greenhouseId) });
  return {
    setSoil: async (sensorId: string, dryRaw: number, wetRaw: number) => {
      await api.request('PUT', `${path(sensorId)}/soil`, { dryRaw, wetRaw });
      await done();
    },
    setLight: async (sensorId: string, referenceLux: number) => {
      await api.request('PUT', `${path(sensorId)}/light`, { referenceLux });
      await done();
    },
    reset: async (sensorId: string) => {
      await api.request('DELETE', path(sensorId));
      await done();
    },
  };
}
