import type { Clock } from '../clock.ts';
import type { OutputOptions, SensorsOptions } from '../options.ts';
import type { DriverStatus, Hardware, SwitchOutput } from '../types.ts';
import { GreenhouseSimulator } from './simulator.ts';

export interface SimulatorHardwareOptions {
  clock: Clock;
  sensors: SensorsOptions;
  outputs: ReadonlyArray<OutputOptions>;
  simulator: { seed: number; startAt?: string };
}

export type SimulatorHardware = Hardware & { simulator: GreenhouseSimulator };

class SimulatedOutput implements SwitchOutput {
  constructor(
    readonly outputId: string,
    readonly kind: 'relay' | 'servo',
    private readonly simulator: GreenhouseSimulator,
  ) {}

  async set(on: boolean): Promise<void> {
    this.simulator.setOutput(this.outputId, on);
  }
}

/** The whole hardware surface backed by one simulated greenhouse. Never loads a native package. */
export function createSimulatorHardware(options: SimulatorHardwareOptions): SimulatorHardware {
  const simulator = new GreenhouseSimulator({
    clock: options.clock,
    seed: options.simulator.seed,
    tankDepthCm: options.sensors.hcsr04.tankDepthCm,
    ads1115: options.sensors.ads1115,
    outputs: options.outputs.map((o) => ({ outputId: o.outputId, kind: o.kind, deviceType: o.type ?? o.device?.deviceType })),
  });
  const outputs = new Map<string, SwitchOutput>(
    options.outputs.map((o) => [o.outputId, new SimulatedOutput(o.outputId, o.kind, simulator)]),
  );
  const status: DriverStatus[] = ['dht11', 'ads1115', 'hcsr04', 'relays', 'servo'].map((name) => ({
    name,
    available: true,
    reason: null,
  }));
  return {
    simulator,
    climate: { read: () => simulator.readClimate() },
    light: { readLux: () => simulator.readLux() },
    soil: { readPercent: () => simulator.readSoilPercent() },
    waterLevel: { readLevelCm: () => simulator.readLevelCm() },
    outputs,
    status: () => status.map((s) => ({ ...s })),
    async safeState() {
      for (const output of outputs.values()) await output.set(false);
    },
    async close() {
      // Nothing to release; the model is garbage once the caller drops it.
    },
  };
}
