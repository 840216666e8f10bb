import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { Dht11Sensor } from '../../../../drivers/rpi/dht11.ts';
import { Hcsr04Sensor } from '../../../../drivers/rpi/hcsr04.ts';
import { Ads1115, AdsLightSensor, AdsSoilSensor } from '../../../../drivers/rpi/ads1115.ts';
import { RelayOutput } from '../../../../drivers/rpi/relay.ts';
import { ServoOutput } from '../../../../drivers/rpi/servo.ts';
import { echoWidthUs } from '../../../../drivers/rpi/hcsr04-convert.ts';
import { fakeAds, fakeDht, fakeOnoff, fakePigpio, type OpLog } from './fakes.ts';

/** Runs `promise` while moving the manual clock forward, so driver waits elapse. */
async function settle<T>(clock: ManualClock, promise: Promise<T>, ms = 1000): Promise<T> {
  const guarded = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await clock.advanceAsync(ms, 5);
  const r = await guarded;
  if ('error' in r) throw r.error;
  return r.value;
}

describe('DHT11 shell', () => {
  it('reads, validates and rejects the library cache repeated within 3 s', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const dht = new Dht11Sensor({ dht: fakeDht(log, [{ t: 21, h: 60 }]), pin: 4, clock, monotonicMs: () => clock.now() });
    expect(await dht.read()).toEqual({ temperatureC: 21, humidityPct: 60 });
    clock.advance(1500);
    await expect(dht.read()).rejects.toThrow(/no fresh reading/);
    clock.advance(2000); // 3.5 s after the last fresh reading
    expect(await dht.read()).toEqual({ temperatureC: 21, humidityPct: 60 });
    expect(log).toEqual(['dht:maxRetries 0', 'dht:read 11 4', 'dht:read 11 4', 'dht:read 11 4']);
  });

  it('accepts a changed value inside the cache window', async () => {
    const clock = new ManualClock();
    const dht = new Dht11Sensor({ dht: fakeDht([], [{ t: 21, h: 60 }, { t: 22, h: 60 }]), pin: 4, clock, monotonicMs: () => clock.now() });
    await dht.read();
    clock.advance(1000);
    expect((await dht.read()).temperatureC).toBe(22);
  });

  it('waits at least 1 s between native calls', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const dht = new Dht11Sensor({ dht: fakeDht(log, [{ t: 21, h: 60 }, { t: 22, h: 61 }]), pin: 4, clock, monotonicMs: () => clock.now() });
    const t0 = clock.now();
    await dht.read();
    const second = dht.read();
    await Promise.resolve();
    expect(log).toEqual(['dht:maxRetries 0', 'dht:read 11 4']); // the second still waits
    expect(await settle(clock, second, 1200)).toEqual({ temperatureC: 22, humidityPct: 61 });
    expect(clock.now() - t0).toBeGreaterThanOrEqual(1000);
  });

  it('keeps its 1 s spacing on the monotonic clock: a wall-clock step back (NTP at boot) holds nothing off', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    let elapsedMs = 0;
    const dht = new Dht11Sensor({ dht: fakeDht(log, [{ t: 21, h: 60 }, { t: 22, h: 61 }]), pin: 4, clock, monotonicMs: () => elapsedMs });
    await dht.read();
    // The wall clock goes back an hour; a second passes on the monotonic clock.
    const wall = clock.now();
    clock.now = () => wall - 3_600_000;
    elapsedMs += 1000;
    expect(await dht.read()).toEqual({ temperatureC: 22, humidityPct: 61 });
    expect(log.filter((op) => op.startsWith('dht:read'))).toHaveLength(2);
  });

  it('turns native errors and garbage into SensorReadError', async () => {
    const clock = new ManualClock();
    const dht = new Dht11Sensor({ dht: fakeDht([], [new Error('failed to read sensor'), { t: 0, h: 0 }]), pin: 4, clock, monotonicMs: () => clock.now() });
    await expect(dht.read()).rejects.toBeInstanceOf(SensorReadError);
    clock.advance(1000);
    await expect(dht.read()).rejects.toThrow(/outside DHT11 range/);
    expect(() => new Dht11Sensor({ dht: fakeDht([], []), pin: 40, clock, monotonicMs: () => clock.now() })).toThrow(/40/);
  });
});

describe('HC-SR04 shell', () => {
  function make(echo: (i: number) => number | null) {
    const log: OpLog = [];
    const clock = new ManualClock();
    const pigpio = fakePigpio(log, echo);
    pigpio.now = () => clock.now();
    const sensor = new Hcsr04Sensor({ pigpio, triggerPin: 23, echoPin: 24, tankDepthCm: 100, clock, monotonicMs: () => clock.now() });
    return { log, clock, pigpio, sensor };
  }

  it('takes the median of 3 pings, 60 ms apart, across the tick wrap', async () => {
    const widths = [1749, 9000, 1760]; // 30.0 cm, a stray 154 cm, 30.2 cm
    const { clock, pigpio, sensor, log } = make((i) => widths[i]!);
    const level = await settle(clock, sensor.readLevelCm(), 500);
    expect(level).toBeCloseTo(100 - 30.18, 1); // median 1760 µs
    expect(pigpio.triggersAt).toHaveLength(3);
    expect(pigpio.triggersAt[1]! - pigpio.triggersAt[0]!).toBeGreaterThanOrEqual(60);
    expect(pigpio.triggersAt[2]! - pigpio.triggersAt[1]!).toBeGreaterThanOrEqual(60);
    expect(log).toContain('pigpio:trigger 23 10 1');
    expect(echoWidthUs(4_294_967_000, 500)).toBe(796);
  });

  it('reports a timeout as SensorReadError when no echo comes back', async () => {
    const { clock, sensor } = make(() => null);
    await expect(settle(clock, sensor.readLevelCm(), 500)).rejects.toThrow(/no echo within 38 ms \(0 of 3/);
  });

  it('treats a 38 ms echo (nothing in range) as no echo', async () => {
    const { clock, sensor } = make(() => 38_000);
    await expect(settle(clock, sensor.readLevelCm(), 500)).rejects.toBeInstanceOf(SensorReadError);
  });

  it('outvotes one silent ping', async () => {
    const { clock, sensor } = make((i) => (i === 1 ? null : 1749)); // 30 cm
    expect(await settle(clock, sensor.readLevelCm(), 500)).toBeCloseTo(70, 0);
  });
});

describe('ADS1115 shell', () => {
  it('converts the mV of ads1x15 back to counts, then to lux and percent', async () => {
    const log: OpLog = [];
    // 12000 counts and 12500 counts at pga 4096
    const adc = await Ads1115.open({ Ads1x15: fakeAds(log, { 0: (12000 * 4096) / 32768, 1: (12500 * 4096) / 32768 }), bus: 1, address: 0x48 });
    const light = new AdsLightSensor({ adc, channel: 0, curve: [[8000, 100], [16000, 1000]] });
    const soil = new AdsSoilSensor({ adc, channel: 1, calibration: { dryRaw: 17500, wetRaw: 7500 } });
    expect(await light.readLux()).toBeCloseTo(316.23, 1);
    expect(await soil.readPercent()).toBe(50);
    expect(log.slice(0, 3)).toEqual(['ads:new 1 0x48', 'ads:open 1', 'ads:probe 0x1']);
    await adc.close();
    expect(log.at(-1)).toBe('ads:close');
  });

  it('recovers after a bus error: the next read goes to the bus again instead of "ADC is busy" forever', async () => {
    const log: OpLog = [];
    const adc = await Ads1115.open({ Ads1x15: fakeAds(log, { 1: (12500 * 4096) / 32768 }, { busErrors: 1 }), bus: 1, address: 0x48 });
    const soil = new AdsSoilSensor({ adc, channel: 1, calibration: { dryRaw: 17500, wetRaw: 7500 } });
    await expect(soil.readPercent()).rejects.toThrow(/soil: ADS1115 channel 1: EIO/);
    expect(await soil.readPercent()).toBe(50);
    expect(await soil.readPercent()).toBe(50);
    expect(log.filter((op) => op.startsWith('ads:read'))).toHaveLength(3);
  });

  it('refuses to open when no chip answers at the address, and closes the bus', async () => {
    const log: OpLog = [];
    await expect(Ads1115.open({ Ads1x15: fakeAds(log, {}, { present: false }), bus: 1, address: 0x49 })).rejects.toThrow(
      'no ADS1115 answers at 0x49 on I2C bus 1 (check the wiring with i2cdetect -y 1): EREMOTEIO, Remote I/O error',
    );
    expect(log.at(-1)).toBe('ads:close');
  });

  it('reports a busy ADC as SensorReadError naming the sensor', async () => {
    const adc = await Ads1115.open({ Ads1x15: fakeAds([], { 1: 'ADC is busy...' }), bus: 1, address: 0x48 });
    const soil = new AdsSoilSensor({ adc, channel: 1, calibration: { dryRaw: 17500, wetRaw: 7500 } });
    await expect(soil.readPercent()).rejects.toThrow(/soil: .*busy/);
  });
});

describe('relay and servo shells', () => {
  it('exports an active-low relay at its OFF level (high) and writes 0 for on', async () => {
    const log: OpLog = [];
    const onoff = fakeOnoff(log);
    const relay = new RelayOutput({ onoff, outputId: 'relay-1', pin: 17, activeLow: true, gpioBase: 512 });
    expect(log).toEqual(['onoff:export 529 high']);
    await relay.set(true);
    await relay.set(false);
    expect(log.slice(1)).toEqual(['onoff:write 529 0', 'onoff:write 529 1']);
  });

  it('exports an active-high relay low and writes 1 for on', async () => {
    const log: OpLog = [];
    const relay = new RelayOutput({ onoff: fakeOnoff(log), outputId: 'r', pin: 5, activeLow: false, gpioBase: 0 });
    await relay.set(true);
    expect(log).toEqual(['onoff:export 5 low', 'onoff:write 5 1']);
  });

  it('drives the servo to the configured pulses and refuses bad ones', async () => {
    const log: OpLog = [];
    const pigpio = fakePigpio(log);
    const servo = new ServoOutput({ pigpio, outputId: 'servo-1', pin: 18, openPulseUs: 2000, closedPulseUs: 1000 });
    await servo.set(true);
    await servo.set(false);
    expect(log.filter((l) => l.startsWith('pigpio:servo'))).toEqual(['pigpio:servo 18 2000', 'pigpio:servo 18 1000']);
    expect(() => new ServoOutput({ pigpio, outputId: 's', pin: 18, openPulseUs: 2600, closedPulseUs: 1000 })).toThrow(/2600/);
  });
});
