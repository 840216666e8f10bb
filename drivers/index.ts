/**
 * The hardware layer's public surface. The server builds one Hardware from config with
 * createHardware and never imports anything below drivers/rpi or drivers/simulator directly.
 */
import type { HardwareOptions } from './options.ts';
import type { Hardware } from './types.ts';
import { createSimulatorHardware, type SimulatorHardware } from './simulator/hardware.ts';
import { createRaspberryPiHardware } from './rpi/hardware.ts';

export * from './types.ts';
export type * from './options.ts';
export { SystemClock, ScaledClock, ManualClock, type Clock, type TimerHandle } from '../common/clock.ts';
export { createSimulatorHardware, type SimulatorHardware, type SimulatorHardwareOptions } from './simulator/hardware.ts';
export { GreenhouseSimulator, effectFor, type SensorFault, type SimulatedOutputSpec } from './simulator/simulator.ts';
export type { GreenhouseState, OutputEffect } from './simulator/model.ts';
export { createRaspberryPiHardware, type RaspberryPiDeps } from './rpi/hardware.ts';

/**
 * Builds the hardware for the configured mode. raspberry-pi mode loads the native packages with
 * `await import()` (drivers/rpi/native.ts); simulator mode never does. Outputs are in their safe state
 * when this resolves. In simulator mode the result also carries `simulator` (narrow on `mode`).
 */
export async function createHardware(options: HardwareOptions & { mode: 'simulator' }): Promise<SimulatorHardware>;
export async function createHardware(options: HardwareOptions): Promise<Hardware | SimulatorHardware>;
export async function createHardware(options: HardwareOptions): Promise<Hardware | SimulatorHardware> {
  switch (options.mode) {
    case 'simulator': {
      const hardware = createSimulatorHardware(options);
      await hardware.safeState();
      return hardware;
    }
    case 'raspberry-pi':
      return createRaspberryPiHardware(options);
  }
}
