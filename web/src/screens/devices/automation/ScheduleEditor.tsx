// The schedule part of the Automation Settings dialog, in clock times and sun events ("from sunrise for
// 16 h") with today's resulting times ("today 07:17-23:17") worked out at the greenhouse's site.
import type { Schedule } from '../../../../../server/contract/device.ts';
import { useNow } from '../../../components/useNow.ts';
import type { EndKind, ScheduleForm, StartKind } from '../../../schedule/schedule-form.ts';
import { usesSun } from '../../../schedule/schedule-form.ts';
import { todayWindow, type Site } from '../../../schedule/sun-times.ts';

interface Props {
  form: ScheduleForm;
  onChange(next: ScheduleForm): void;
  /** The schedule as the form says it, or the form's problem. */
  schedule: Schedule | null | string;
  /** systemSettings.site; undefined while the settings load. */
  site: Site | null | undefined;
}

const START_KINDS: Array<{ value: StartKind; label: string }> = [
  { value: 'clock', label: 'At a clock time' },
  { value: 'sunrise', label: 'At sunrise' },
  { value: 'sunset', label: 'At sunset' },
];
const END_KINDS: Array<{ value: EndKind; label: string }> = [
  { value: 'duration', label: 'After N hours' },
  ...START_KINDS,
];

export function ScheduleEditor({ form, onChange, schedule, site }: Props) {
  const nowMs = useNow(60_000);
  const set = (patch: Partial<ScheduleForm>) => onChange({ ...form, ...patch });
  const today = schedule && typeof schedule !== 'string' && site !== undefined ? todayWindow(schedule, site, nowMs) : null;
  const needsSite = schedule !== null && typeof schedule !== 'string' && usesSun(schedule) && site === null;
  return (
    <fieldset className="automation-group" data-testid="schedule-editor">
      <label className="checkbox">
        <input type="checkbox" name="scheduleOn" checked={form.on} onChange={(e) => set({ on: e.target.checked })} />
        Only within a schedule
      </label>
      {form.on && (
        <>
          <div className="settings-pair">
            <label className="field">
              Starts
              <select name="scheduleStartKind" value={form.startKind} onChange={(e) => set({ startKind: e.target.value as StartKind })}>
                {START_KINDS.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </select>
            </label>
            {form.startKind === 'clock' ? (
              <label className="field">
                Start time
                <input name="scheduleStartClock" type="time" value={form.startClock} onChange={(e) => set({ startClock: e.target.value })} />
              </label>
            ) : (
              <label className="field">
                Minutes after {form.startKind} (negative: before)
                <input name="scheduleStartOffset" type="number" step={1} value={form.startOffsetMin} onChange={(e) => set({ startOffsetMin: e.target.value })} />
              </label>
            )}
          </div>
          <div className="settings-pair">
            <label className="field">
              Ends
              <select name="scheduleEndKind" value={form.endKind} onChange={(e) => set({ endKind: e.target.value as EndKind })}>
                {END_KINDS.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </select>
            </label>
            {form.endKind === 'duration' ? (
              <label className="field">
                Hours on
                <input name="scheduleHours" type="number" min={0.5} max={23.5} step={0.5} value={form.durationH} onChange={(e) => set({ durationH: e.target.value })} />
              </label>
            ) : form.endKind === 'clock' ? (
              <label className="field">
                End time
                <input name="scheduleEndClock" type="time" value={form.endClock} onChange={(e) => set({ endClock: e.target.value })} />
              </label>
            ) : (
              <label className="field">
                Minutes after {form.endKind} (negative: before)
                <input name="scheduleEndOffset" type="number" step={1} value={form.endOffsetMin} onChange={(e) => set({ endOffsetMin: e.target.value })} />
              </label>
            )}
          </div>
          {needsSite ? (
            <p className="field-error" data-testid="schedule-needs-site">
              Sunrise and sunset need the greenhouse's location: an admin sets it in Settings, System.
            </p>
          ) : (
            today && (
              <p className={today.ok ? 'schedule-today' : 'field-error'} data-testid="schedule-today">
                {today.text}
              </p>
            )
          )}
          <p className="field-hint">
            In the gateway's local time; a window may cross midnight. Off outside the window; with no rule, on inside it (a photoperiod).
          </p>
        </>
      )}
    </fieldset>
  );
}
