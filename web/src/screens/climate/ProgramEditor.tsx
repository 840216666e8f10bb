// The program editor: one row per period (start, heat below, vent above, humidity above, ramp), the
// roof window's safe position, Save. The server checks order, ramps and targets and names the field;
// the editor marks that input and shows the sentence.
import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import type { ClimateProgram, WindowSafePosition } from '../../../../server/contract/climate.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { climateKey, saveClimateProgram } from '../../api/climate.ts';
import { useGreenhouseId } from '../../api/greenhouse.ts';
import { roleReason } from '../../auth/permissions.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { toast } from '../../components/toast/index.ts';
import { fieldToCell, programFrom, STARTER_ROWS, toRow, type PeriodRow } from './period-form.ts';

const MAX_PERIODS = 8;
const COLUMNS: Array<{ key: keyof PeriodRow; label: string; type: 'text' | 'number'; hint?: string }> = [
  { key: 'start', label: 'Starts at', type: 'text', hint: 'HH:MM, sunrise+30, sunset-15' },
  { key: 'heatBelowC', label: 'Heat below (°C)', type: 'number' },
  { key: 'ventAboveC', label: 'Vent above (°C)', type: 'number' },
  { key: 'humidityAbovePct', label: 'Dehumidify above (%)', type: 'number' },
  { key: 'rampMinutes', label: 'Ramp (min)', type: 'number' },
];

export function ProgramEditor({ program }: { program: ClimateProgram | null }) {
  const id = useGreenhouseId();
  const queryClient = useQueryClient();
  const reason = roleReason(useAuth().user, 'operator');
  const editable = reason === null;
  const [rows, setRows] = useState<PeriodRow[]>(() => program?.periods.map(toRow) ?? STARTER_ROWS);
  const [safe, setSafe] = useState<WindowSafePosition>(program?.windowSafePosition ?? 'closed');
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (program) {
      setRows(program.periods.map(toRow));
      setSafe(program.windowSafePosition ?? 'closed');
    }
  }, [program]);

  const badCell = fieldToCell(problem?.field);
  const setCell = (i: number, key: keyof PeriodRow, value: string) => setRows(rows.map((r, j) => (j === i ? { ...r, [key]: value } : r)));

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await saveClimateProgram(id, programFrom(rows, safe, { crop: program?.crop ?? null, stages: program?.stages ?? [] }));
      await queryClient.invalidateQueries({ queryKey: climateKey(id) });
      toast.success('Climate program saved');
    } catch (err) {
      const field = err instanceof ApiError ? (err.body as { errors?: Array<{ field: string }> } | null)?.errors?.[0]?.field : undefined;
      const message = errorMessage(err, 'Failed to save the climate program');
      setProblem({ message, field });
      toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form climate-editor" onSubmit={save} data-testid="climate-editor">
      {reason && <p className="settings-warning">{reason}</p>}
      <div className="climate-periods" role="table" aria-label="Periods">
        {rows.map((row, i) => (
          <fieldset key={i} className="climate-period" data-testid={`period-${i}`} disabled={!editable}>
            <legend>Period {i + 1}</legend>
            {COLUMNS.map((col) => {
              const bad = badCell?.row === i && badCell.key === col.key;
              return (
                <label key={col.key} className="field">
                  {col.label}
                  <input
                    name={`periods.${i}.${col.key}`}
                    type={col.type}
                    inputMode={col.type === 'number' ? 'decimal' : undefined}
                    step="any"
                    value={row[col.key]}
                    aria-invalid={bad || undefined}
                    placeholder={col.hint}
                    onChange={(e) => setCell(i, col.key, e.target.value)}
                  />
                </label>
              );
            })}
            <button type="button" className="btn btn-ghost btn-sm" aria-label={`Remove period ${i + 1}`} disabled={rows.length <= 1}
              onClick={() => setRows(rows.filter((_, j) => j !== i))}>
              <Trash2 size={16} aria-hidden /> Remove
            </button>
          </fieldset>
        ))}
      </div>
      <div className="climate-actions">
        <button type="button" className="btn btn-secondary btn-sm" disabled={!editable || rows.length >= MAX_PERIODS}
          onClick={() => setRows([...rows, { ...rows[rows.length - 1]!, start: '' }])}>
          <Plus size={16} aria-hidden /> Add period
        </button>
        <label className="field">
          Roof window without a reading
          <select name="windowSafePosition" value={safe} disabled={!editable} onChange={(e) => setSafe(e.target.value as WindowSafePosition)}>
            <option value="closed">Closed (frost, storms)</option>
            <option value="open">Open (heat)</option>
          </select>
        </label>
      </div>
      {problem && (
        <p className="form-error" role="alert" data-testid="climate-error">
          {problem.message}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={!editable || busy}>
        {busy ? 'Saving...' : 'Save program'}
      </button>
    </form>
  );
}
