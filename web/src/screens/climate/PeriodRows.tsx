// One list of periods (the base program's or a grow stage's): a fieldset per period, the input the
// gateway named marked, Add period (up to 8) and Remove.
import { Plus, Trash2 } from 'lucide-react';
import type { PeriodRow } from './period-form.ts';

const MAX_PERIODS = 8;
const COLUMNS: Array<{ key: keyof PeriodRow; label: string; type: 'text' | 'number'; hint?: string }> = [
  { key: 'start', label: 'Starts at', type: 'text', hint: 'HH:MM, sunrise+30, sunset-15' },
  { key: 'heatBelowC', label: 'Heat below (°C)', type: 'number' },
  { key: 'ventAboveC', label: 'Vent above (°C)', type: 'number' },
  { key: 'humidityAbovePct', label: 'Dehumidify above (%)', type: 'number' },
  { key: 'rampMinutes', label: 'Ramp (min)', type: 'number' },
];

export interface PeriodRowsProps {
  rows: PeriodRow[];
  onChange(rows: PeriodRow[]): void;
  bad: { row: number; key: keyof PeriodRow } | null;
  editable: boolean;
  /** The field path of these rows ("periods", "stages.0.periods"): input names and test ids. */
  path: string;
}

export function PeriodRows({ rows, onChange, bad, editable, path }: PeriodRowsProps) {
  const setCell = (i: number, key: keyof PeriodRow, value: string) => onChange(rows.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  return (
    <div className="climate-periods">
      {rows.map((row, i) => (
        <fieldset key={i} className="climate-period" data-testid={`${path === 'periods' ? 'period' : path}-${i}`} disabled={!editable}>
          <legend>Period {i + 1}</legend>
          {COLUMNS.map((col) => (
            <label key={col.key} className="field">
              {col.label}
              <input
                name={`${path}.${i}.${col.key}`}
                type={col.type}
                inputMode={col.type === 'number' ? 'decimal' : undefined}
                step="any"
                value={row[col.key]}
                aria-invalid={(bad?.row === i && bad.key === col.key) || undefined}
                placeholder={col.hint}
                onChange={(e) => setCell(i, col.key, e.target.value)}
              />
            </label>
          ))}
          <button type="button" className="btn btn-ghost btn-sm" aria-label={`Remove period ${i + 1}`} disabled={rows.length <= 1}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            <Trash2 size={16} aria-hidden /> Remove
          </button>
        </fieldset>
      ))}
      <div>
        <button type="button" className="btn btn-secondary btn-sm" disabled={!editable || rows.length >= MAX_PERIODS}
          onClick={() => onChange([...rows, { ...rows[rows.length - 1]!, start: '' }])}>
          <Plus size={16} aria-hidden /> Add period
        </button>
      </div>
    </div>
  );
}
