import type { Clock } from '../../common/clock.ts';
import type { OutputOptions, SensorInstanceOptions } from '../options.ts';
import type { DriverStatus, Hardware, SwitchOutput } from '../types.ts';
import { simulatedInstance } from './instances.ts';
import { GreenhouseSimulator } from './simulator.ts';

export interface SimulatorHardwareOptions {
  clock: Clock;
  sensors: readonly SensorInstanceOptions[];
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

  async setOpenPct(pct: number): Promise<void> {
    if (this.kind !== 'servo') throw new RangeError(`output '${this.outputId}' is a relay: it cannot open part-way`);
    this.simulator.setOutputOpenPct(this.outputId, pct);
  }
}

/** The calibration of the model's own ADC reads when no ADS1115 instance is configured. */
const DEFAULT_ADS = {
  soilDryRaw: 17500,
  soilWetRaw: 7500,
  lightCurve: [
    [1000, 1],
    [8000, 100],
    [16000, 1000],
    [24000, 10000],
    [30000, 60000],
  ] as ReadonlyArray<readonly [number, number]>,
};

/**
 * The whole hardware surface backed by one simulated greenhouse: one simulated driver per configured
 * sensor instance, each with its kind's accuracy as noise. Never loads a native package.
 */
export function createSimulatorHardware(options: SimulatorHardwareOptions): SimulatorHardware {
  const tank = options.sensors.find((s) => s.kind === 'HCSR04');
  const ldr = options.sensors.find((s) => s.kind === 'ADS1115_LDR');
  const soil = options.sensors.find((s) => s.kind === 'ADS1115_SOIL');
  const simulator = new GreenhouseSimulator({
    clock: options.clock,
    seed: options.simulator.seed,
    tankDepthCm: tank?.tankDepthCm ?? 100,
    ads1115: {
      lightCurve: ldr?.lightCurve ?? DEFAULT_ADS.lightCurve,
      soilDryRaw: soil?.dryRaw ?? DEFAULT_ADS.soilDryRaw,
      soilWetRaw: soil?.wetRaw ?? DEFAULT_ADS.soilWetRaw,
    },
    outputs: options.outputs.map((o) => ({ outputId: o.outputId, kind: o.kind, deviceType: o.type ?? o.device?.deviceType })),
  });
  const outputs = new Map<string, SwitchOutput>(
    options.outputs.map((o) => [o.outputId, new SimulatedOutput(o.outputId, o.kind, simulator)]),
  );
  const sensors = options.sensors.map((s) => simulatedInstance(simulator, { ...s, name: s.name || s.sensorId }, options.simulator.seed));
  const status: DriverStatus[] = [...options.sensors.map((s) => `sensor:${s.sensorId}`), 'relays', 'servo'].map((name) => ({
    name,
    available: true,
    reason: null,
  }));
  return {
    simulator,
    sensors,
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
