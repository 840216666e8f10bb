// The irrigation editor's texts and the program they make, checked as the gateway checks them (the
// gateway still decides: its 400 names the field). Pure, so the dialog and its tests share it.
import type { IrrigationProgram } from '../../../../../server/contract/device.ts';

export interface IrrigationForm {
  on: boolean;
  startBelowPct: string;
  targetPct: string;
  pulseSeconds: string;
  soakMinutes: string;
  maxPulses: string;
  maxRunSecondsPerDay: string;
  windowFrom: string;
  windowTo: string;
  fallbackEveryHours: string;
  flowLitresPerMinute: string;
}

/** A sensible first program for a bed: 30 % to 40 %, 20 s shots, 10 min soaks, at most 10 min a day. */
const DEFAULTS = { startBelowPct: 30, targetPct: 40, pulseSeconds: 20, soakMinutes: 10, maxPulses: 4, maxRunSecondsPerDay: 600 };

export function formFromProgram(program: IrrigationProgram | null | undefined, flow: number | null | undefined): IrrigationForm {
  const p = program ?? DEFAULTS;
  const window = program?.window ?? null;
  return {
    on: Boolean(program),
    startBelowPct: String(p.startBelowPct),
    targetPct: String(p.targetPct),
    pulseSeconds: String(p.pulseSeconds),
    soakMinutes: String(p.soakMinutes),
    maxPulses: String(p.maxPulses),
    maxRunSecondsPerDay: String(p.maxRunSecondsPerDay),
    windowFrom: window?.from ?? '',
    windowTo: window?.to ?? '',
    fallbackEveryHours: program?.fallbackEveryHours == null ? '' : String(program.fallbackEveryHours),
    flowLitresPerMinute: flow == null ? '' : String(flow),
  };
}

const HM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** The program the form describes, null when switched off, or the first problem in a grower's words. */
export function programFromForm(form: IrrigationForm): IrrigationProgram | null | string {
  if (!form.on) return null;
  const num = (text: string, label: string, min: number, max: number, integer = false): number | string => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      return `${label} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`;
    }
    return value;
  };
  const startBelowPct = num(form.startBelowPct, 'Start below', 0, 100);
  const targetPct = num(form.targetPct, 'Target', 0, 100);
  const pulseSeconds = num(form.pulseSeconds, 'Pulse', 1, 3600, true);
  const soakMinutes = num(form.soakMinutes, 'Soak', 0, 1440, true);
  const maxPulses = num(form.maxPulses, 'Pulses per cycle', 1, 50, true);
  const maxRunSecondsPerDay = num(form.maxRunSecondsPerDay, 'Daily run budget', 1, 86400, true);
  for (const v of [startBelowPct, targetPct, pulseSeconds, soakMinutes, maxPulses, maxRunSecondsPerDay]) if (typeof v === 'string') return v;
  const program: IrrigationProgram = {
    startBelowPct: startBelowPct as number,
    targetPct: targetPct as number,
    pulseSeconds: pulseSeconds as number,
    soakMinutes: soakMinutes as number,
    maxPulses: maxPulses as number,
    maxRunSecondsPerDay: maxRunSecondsPerDay as number,
    window: null,
    fallbackEveryHours: null,
  };
  if (program.targetPct <= program.startBelowPct) return 'Target must be above the start level';
  if (program.pulseSeconds > program.maxRunSecondsPerDay) return 'A pulse cannot be longer than the daily run budget';
  if (program.soakMinutes === 0 && program.maxPulses > 1) return 'Soak at least 1 minute between pulses';
  if (form.windowFrom.trim() !== '' || form.windowTo.trim() !== '') {
    if (!HM.test(form.windowFrom) || !HM.test(form.windowTo)) return 'The watering window needs both times as HH:MM';
    program.window = { from: form.windowFrom, to: form.windowTo };
  }
  if (form.fallbackEveryHours.trim() !== '') {
    const every = num(form.fallbackEveryHours, 'Fallback', 1, 168);
    if (typeof every === 'string') return every;
    program.fallbackEveryHours = every;
  }
  return program;
}

/** The flow the form says: null when empty (the output's configured flow), or the problem. */
export function flowFromForm(form: IrrigationForm): number | null | string {
  if (form.flowLitresPerMinute.trim() === '') return null;
  const flow = Number(form.flowLitresPerMinute);
  return Number.isFinite(flow) && flow > 0 && flow <= 1000 ? flow : 'Flow must be above 0 and at most 1000 L/min';
}

/** The program in one sentence, as the card and the dialog say it. */
export function programStatement(p: IrrigationProgram, flow: number | null): string {
  const litres = flow === null ? '' : ` (about ${Math.round(((p.pulseSeconds / 60) * flow) * 10) / 10} L each)`;
  const window = p.window ? `, only ${p.window.from}-${p.window.to}` : '';
  const fallback = p.fallbackEveryHours ? `; if the probe is lost, one pulse every ${p.fallbackEveryHours} h` : '; if the probe is lost, no watering';
  return `Below ${p.startBelowPct} %: pulses of ${p.pulseSeconds} s${litres} with ${p.soakMinutes} min soaks until ${p.targetPct} %, at most ${p.maxPulses} per cycle and ${p.maxRunSecondsPerDay} s a day${window}, never on a low tank${fallback}.`;
}
