import type { AppContext } from '../context.ts';
import type { Feature } from '../features.ts';
import { simulatorRoutes } from './routes.ts';
import { SimulatorControl } from './simulator-control.ts';

/** The simulator's control API (simulator mode only: on hardware it registers nothing, so 404). */
export function createSimulatorFeature(ctx: AppContext): Feature {
  const simulator = ctx.hardware.simulator;
  return {
    name: 'simulator',
    async registerRoutes(api) {
      if (!simulator) return;
      await api.register(simulatorRoutes, { prefix: '/simulator', control: new SimulatorControl({ simulator, sensorIds: ctx.hardware.sensors.map((sensor) => sensor.sensorId) }) });
    },
  };
}
