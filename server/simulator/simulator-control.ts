import type { GreenhouseSimulator } from '../../drivers/simulator/simulator.ts';
import type { SensorName } from '../../drivers/types.ts';
import type { SensorType } from '../contract/reading.ts';
import { SENSOR_TYPES } from '../contract/reading.ts';
import type { SimulatedFault, SimulatorState } from '../contract/simulator.ts';
import { invalid } from '../domain/errors.ts';
import { climateMetrics, dewPointC } from '../sensors/climate-metrics.ts';

/** The driver's name for each sensor of the contract. */
const DRIVER_SENSOR: Record<SensorType, SensorName> = { DHT11: 'climate', LDR: 'light', SOIL_MOISTURE: 'soil', WATER_LEVEL: 'waterLevel' };

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * What the Simulator panel drives (docs/decisions.md, Climate metrics, automation and the simulator): a grower
 * injects a fault or drains the tank and watches the safety rules act. Simulator mode only.
 */
export class SimulatorControl {
  private readonly simulator: GreenhouseSimulator;
  readonly #sensorIds: readonly string[];

  constructor(options: { simulator: GreenhouseSimulator; sensorIds: readonly string[] }) {
    this.simulator = options.simulator;
    this.#sensorIds = options.sensorIds;
  }

  state(): SimulatorState {
    const s = this.simulator.snapshot();
    const metrics = climateMetrics(s.insideTemperatureC, s.insideHumidityPct);
    const dew = dewPointC(s.insideTemperatureC, s.insideHumidityPct);
    return {
      at: new Date(s.timeMs).toISOString(),
      inside: {
        temperatureC: round(s.insideTemperatureC, 2),
        humidityPct: round(s.insideHumidityPct, 1),
        lightLux: round(s.lux, 0),
        soilMoisturePct: round(s.soilMoisturePct, 1),
        vpdKpa: metrics.vpdKpa ?? 0,
        dewPointC: dew === null ? null : round(dew, 1),
        condensing: s.condensing,
      },
      outside: { temperatureC: round(s.outsideTemperatureC, 2), humidityPct: round(s.outsideHumidityPct, 1), cloudCover: round(s.cloudCover, 2) },
      tank: { levelCm: round(s.tankLevelCm, 1), depthCm: this.simulator.tankDepthCm },
      faults: SENSOR_TYPES.map((sensor) => ({ sensor, fault: this.simulator.faultOf(DRIVER_SENSOR[sensor])?.kind ?? 'none' })),
      instanceFaults: this.#sensorIds.map((sensorId) => ({ sensorId, fault: this.simulator.instanceFaultOf(sensorId)?.kind ?? 'none' })),
      activeEffects: s.activeEffects,
    };
  }

  /**
   * 'silent' stops the sensor answering; 'stuck' freezes it at its present value; 'none' clears the
   * fault. `sensor` (a zone) faults every instance of it; `sensorId` one instance.
   */
  setFault(target: { sensor?: SensorType; sensorId?: string }, fault: SimulatedFault): SimulatorState {
    const { sensor, sensorId } = target;
    if ((sensor === undefined) === (sensorId === undefined)) throw invalid('give either sensor (a sensor type) or sensorId (one sensor instance)', 'sensor');
    if (sensorId !== undefined) {
      if (!this.#sensorIds.includes(sensorId)) throw invalid(`sensorId must be one of ${this.#sensorIds.join(', ')}, got ${sensorId}`, 'sensorId');
      this.simulator.injectInstanceFault(sensorId, fault === 'none' ? null : { kind: fault });
    } else {
      this.simulator.injectFault(DRIVER_SENSOR[sensor!], fault === 'none' ? null : { kind: fault });
    }
    return this.state();
  }

  setTankLevel(levelCm: number): SimulatorState {
    const depthCm = this.simulator.tankDepthCm;
    if (levelCm > depthCm) throw invalid(`levelCm must be between 0 and the tank depth of ${depthCm} cm, got ${levelCm}`, 'levelCm');
    this.simulator.setTankLevelCm(levelCm);
    return this.state();
  }

  /** The bed's true soil moisture (0-100 %, the schema's range); the probe reads it with its noise. */
  setSoilMoisture(moisturePct: number): SimulatorState {
    this.simulator.setSoilMoisture(moisturePct);
    return this.state();
  }
}
