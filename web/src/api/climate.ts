// Climate program data (docs/climate.md): the program, the targets now, and the curve the editor draws.
//   const { data } = useClimateNow();  const program = useClimateProgram();  const curve = useClimateCurve(fromIso);
import { useQuery } from '@tanstack/react-query';
import type { ClimateCurvePoint, ClimateNow, ClimateProgram } from '../../../server/contract/climate.ts';
import { api } from './client.ts';
import { useGreenhouseId } from './greenhouse.ts';
import { POLL_INTERVAL_MS } from './queries.ts';

export const climateKey = (greenhouseId: string) => ['climate', greenhouseId] as const;

/** The stored program (null when there is none). Not polled: the editor must not lose what is typed. */
export function useClimateProgram() {
  const id = useGreenhouseId();
  return useQuery({
    queryKey: [...climateKey(id), 'program'],
    queryFn: ({ signal }) => api.get<ClimateProgram | null>(`/api/climate/${id}`, { signal }),
    refetchInterval: false,
    refetchOnWindowFocus: false,
  });
}

/** The targets in force now (the Overview and the editor's header), polled. */
export function useClimateNow() {
  const id = useGreenhouseId();
  return useQuery({
    queryKey: [...climateKey(id), 'now'],
    queryFn: ({ signal }) => api.get<ClimateNow>(`/api/climate/${id}/now`, { signal }),
    refetchInterval: POLL_INTERVAL_MS,
  });
}

/** 24 hours of targets from `fromIso` (the editor asks from local midnight). */
export function useClimateCurve(fromIso: string) {
  const id = useGreenhouseId();
  return useQuery({
    queryKey: [...climateKey(id), 'curve', fromIso],
    queryFn: ({ signal }) => api.get<ClimateCurvePoint[]>(`/api/climate/${id}/curve?hours=24&from=${encodeURIComponent(fromIso)}`, { signal }),
    refetchInterval: false,
  });
}

export function saveClimateProgram(greenhouseId: string, program: ClimateProgram): Promise<ClimateProgram> {
  return api.put<ClimateProgram>(`/api/climate/${greenhouseId}`, program);
}
