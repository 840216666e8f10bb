import type { DeviceType, IrrigationProgram } from '../../contract/device.ts';
import { invalid } from '../../domain/errors.ts';

const FIELD = 'automationRules.irrigation';

/**
 * What the schema cannot say about a program: its fields against each other and against the device.
 * Each refusal is a 400 naming the field, and nothing is stored (the registry checks before it writes).
 */
export function checkIrrigation(program: IrrigationProgram | null | undefined, deviceType: DeviceType): void {
  if (program === null || program === undefined) return;
  if (deviceType !== 'WATER_PUMP') {
    throw invalid(`${FIELD} applies only to a WATER_PUMP (this device is a ${deviceType})`, FIELD);
  }
  if (program.targetPct <= program.startBelowPct) {
    throw invalid(
      `${FIELD}.targetPct (${program.targetPct}) must be above ${FIELD}.startBelowPct (${program.startBelowPct}): watering starts below the one and stops at the other`,
      `${FIELD}.targetPct`,
    );
  }
  if (program.pulseSeconds > program.maxRunSecondsPerDay) {
    throw invalid(
      `${FIELD}.pulseSeconds (${program.pulseSeconds}) is longer than the daily budget ${FIELD}.maxRunSecondsPerDay (${program.maxRunSecondsPerDay})`,
      `${FIELD}.pulseSeconds`,
    );
  }
  // Without a soak the pulses run back to back: one long run, which is what pulses exist to avoid.
  if (program.soakMinutes === 0 && program.maxPulses > 1) {
    throw invalid(`${FIELD}.soakMinutes must be at least 1 with more than one pulse (maxPulses ${program.maxPulses}): the water needs time to soak in`, `${FIELD}.soakMinutes`);
  }
}
