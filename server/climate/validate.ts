import type { ClimatePeriod, ClimateProgram } from '../contract/climate.ts';
import { invalid } from '../domain/errors.ts';
import { resolveTime, type Site } from '../devices/rules/schedule.ts';
import { DAY_MS, localDate, shiftDays } from './program-days.ts';
import { localDateText } from '../time/local-date.ts';

/**
 * The checks a program passes before it is stored (400 naming the field; nothing is stored otherwise).
 * Sun events move through the year, so the order of the periods and each ramp's fit are checked on
 * the 1st and 15th of every month of the coming year as well as today: a `sunrise+60` after `07:00`
 * in June may fall before it in December.
 */
export function validateProgram(program: ClimateProgram, nowMs: number, site: Site | null): void {
  checkPeriods(program.periods, 'periods', nowMs, site);
  if (program.stages?.length) {
    if (!program.crop) throw invalid('stages need a crop (its name and start date) to count the days from', 'crop');
    program.stages.forEach((stage, k) => {
      if (k > 0 && stage.fromDay <= program.stages![k - 1]!.fromDay) {
        throw invalid(`stages.${k}.fromDay must be after stage ${k}'s day ${program.stages![k - 1]!.fromDay}`, `stages.${k}.fromDay`);
      }
      checkPeriods(stage.periods, `stages.${k}.periods`, nowMs, site);
    });
  }
  if (program.crop) checkStartDate(program.crop.startDate, nowMs);
}

/**
 * A crop's start: a real calendar date from 2000-01-01 to a year from today (a crop planned ahead;
 * 9999-12-31 is a typo, and its stages would never come).
 */
function checkStartDate(startDate: string, nowMs: number): void {
  const [y, m, d] = startDate.split('-').map(Number) as [number, number, number];
  const date = localDate(y, m, d);
  if (date.getFullYear() !== y || date.getMonth() !== m - 1 || date.getDate() !== d) {
    throw invalid(`crop.startDate '${startDate}' is not a date`, 'crop.startDate');
  }
  // The earliest as the curve's earliest `from` (docs/climate.md).
  const earliest = localDate(2000, 1, 1);
  const now = new Date(nowMs);
  const latest = localDate(now.getFullYear() + 1, now.getMonth() + 1, now.getDate());
  if (date < earliest || date > latest) {
    throw invalid(`crop.startDate '${startDate}' must be from ${localDateText(earliest)} to a year from today (${localDateText(latest)})`, 'crop.startDate');
  }
}

/**
 * The days the order of the periods is checked on: today, and the 1st and 15th of the next twelve
 * months; a day with a clock change is checked on the next day instead. On that day a start in the
 * skipped hour falls at the jump (02:00 and 02:30 both at 03:00) and the night is an hour shorter or
 * longer: the running program takes that as it comes (the later start holds, a ramp is cut short), and
 * a program must not be refused for being saved on that one day (docs/decisions.md, "Clock changes").
 */
function checkDays(nowMs: number): number[] {
  const now = new Date(nowMs);
  const days = [new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()];
  for (let month = 0; month < 12; month++) {
    for (const date of [1, 15]) days.push(new Date(now.getFullYear(), now.getMonth() + month, date).getTime());
  }
  return days.map((dayMs) => {
    let day = dayMs;
    for (let tries = 0; tries < 7 && shiftDays(day, 1) - day !== DAY_MS; tries++) day = shiftDays(day, 1);
    return day;
  });
}

function checkPeriods(periods: ClimatePeriod[], path: string, nowMs: number, site: Site | null): void {
  periods.forEach((p, i) => {
    if (p.heatBelowC >= p.ventAboveC) {
      throw invalid(`${path}.${i}.heatBelowC (${p.heatBelowC} °C) must be below its ventAboveC (${p.ventAboveC} °C): the heating and the venting would fight`, `${path}.${i}.heatBelowC`);
    }
  });
  for (const dayMs of checkDays(nowMs)) {
    const starts = periods.map((p, i) => {
      const startMs = resolveTime(p.start, dayMs, site);
      if (typeof startMs === 'string') throw invalid(`${path}.${i}.start: ${startMs}`, `${path}.${i}.start`);
      return startMs;
    });
    const date = new Date(dayMs).toDateString();
    starts.forEach((startMs, i) => {
      if (i > 0 && startMs <= starts[i - 1]!) {
        throw invalid(
          `${path}.${i}.start '${periods[i]!.start}' must come after period ${i}'s '${periods[i - 1]!.start}' (periods are in the order of the day and may not overlap; on ${date} they do)`,
          `${path}.${i}.start`,
        );
      }
    });
    const dayLengthMs = new Date(dayMs).setDate(new Date(dayMs).getDate() + 1) - dayMs;
    starts.forEach((startMs, i) => {
      // The last period runs until the first one starts again on the next day.
      const endMs = i + 1 < starts.length ? starts[i + 1]! : starts[0]! + dayLengthMs;
      const lengthMin = Math.floor((endMs - startMs) / 60_000);
      if (periods[i]!.rampMinutes > lengthMin) {
        throw invalid(`${path}.${i}.rampMinutes (${periods[i]!.rampMinutes}) is longer than its period (${lengthMin} min on ${date})`, `${path}.${i}.rampMinutes`);
      }
    });
  }
}
