import type { Clock, MonotonicMs } from '../../common/clock.ts';
import { DHT11_MODEL, DhtSensor } from './dht-sensor.ts';
import type { DhtModule } from './native.ts';

/** The DHT11 of the legacy `sensors.dht11` key: a DhtSensor whose errors name the `climate` sensor. */
export class Dht11Sensor extends DhtSensor {
  constructor(deps: { dht: DhtModule; pin: number; clock: Clock; monotonicMs?: MonotonicMs }) {
    super({ ...deps, model: DHT11_MODEL, sensor: 'climate' });
  }
}
