// The program editor: the base periods (start, heat below, vent above, humidity above, ramp), the roof
// window's safe position, and optionally a crop with grow stages whose periods replace the base ones
// from their day. The gateway checks order, ramps and targets and names the field; the editor marks
// that input and shows the sentence.
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
import { fieldToCell, programFrom, stageFrom, STARTER_ROWS, toRow, toStageRow, type PeriodRow, type StageRow } from './period-form.ts';
import { PeriodRows } from './PeriodRows.tsx';

interface CropForm {
  name: string;
  startDate: string;
}

export function ProgramEditor({ program }: { program: ClimateProgram | null }) {
  const id = useGreenhouseId();
  const queryClient = useQueryClient();
  const reason = roleReason(useAuth().user, 'operator');
  const editable = reason === null;
  const [rows, setRows] = useState<PeriodRow[]>(() => program?.periods.map(toRow) ?? STARTER_ROWS);
  const [safe, setSafe] = useState<WindowSafePosition>(program?.windowSafePosition ?? 'closed');
  const [crop, setCrop] = useState<CropForm | null>(program?.crop ?? null);
  const [stages, setStages] = useState<StageRow[]>(() => program?.stages?.map(toStageRow) ?? []);
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!program) return;
    setRows(program.periods.map(toRow));
    setSafe(program.windowSafePosition ?? 'closed');
    setCrop(program.crop ?? null);
    setStages(program.stages?.map(toStageRow) ?? []);
  }, [program]);

  const setStage = (k: number, patch: Partial<StageRow>) => setStages(stages.map((s, j) => (j === k ? { ...s, ...patch } : s)));

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const keep = { crop: crop ? { name: crop.name.trim(), startDate: crop.startDate } : null, stages: crop ? stages.map(stageFrom) : [] };
      await saveClimateProgram(id, programFrom(rows, safe, keep));
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
      <PeriodRows rows={rows} onChange={setRows} bad={fieldToCell(problem?.field)} editable={editable} path="periods" />
      <label className="field">
        Roof window without a reading
        <select name="windowSafePosition" value={safe} disabled={!editable} onChange={(e) => setSafe(e.target.value as WindowSafePosition)}>
          <option value="closed">Closed (frost, storms)</option>
          <option value="open">Open (heat)</option>
        </select>
      </label>

      <fieldset className="climate-crop" disabled={!editable} data-testid="climate-crop">
        <legend>Crop and grow stages</legend>
        <label className="checkbox">
          <input type="checkbox" name="hasCrop" checked={crop !== null} onChange={(e) => setCrop(e.target.checked ? { name: '', startDate: new Date().toISOString().slice(0, 10) } : null)} />
          Change the program by day of the crop
        </label>
        {crop && (
          <>
            <div className="settings-pair">
              <label className="field">
                Crop
                <input name="crop.name" value={crop.name} aria-invalid={problem?.field === 'crop.name' || undefined} onChange={(e) => setCrop({ ...crop, name: e.target.value })} />
              </label>
              <label className="field">
                Started on (day 1)
                <input name="crop.startDate" type="date" value={crop.startDate} aria-invalid={problem?.field === 'crop.startDate' || undefined} onChange={(e) => setCrop({ ...crop, startDate: e.target.value })} />
              </label>
            </div>
            {stages.map((stage, k) => (
              <fieldset key={k} className="climate-stage" data-testid={`stage-${k}`}>
                <legend>Stage {k + 1}</legend>
                <div className="settings-pair">
                  <label className="field">
                    Stage name
                    <input name={`stages.${k}.name`} value={stage.name} placeholder="seedling, vegetative, flowering" onChange={(e) => setStage(k, { name: e.target.value })} />
                  </label>
                  <label className="field">
                    From day
                    <input name={`stages.${k}.fromDay`} type="number" min={1} value={stage.fromDay} aria-invalid={problem?.field === `stages.${k}.fromDay` || undefined} onChange={(e) => setStage(k, { fromDay: e.target.value })} />
                  </label>
                  <label className="field">
                    Lights on (hours a day)
                    <input name={`stages.${k}.photoperiodHours`} type="number" min={0} max={24} step="any" value={stage.photoperiodHours} placeholder="Not driven" onChange={(e) => setStage(k, { photoperiodHours: e.target.value })} />
                  </label>
                </div>
                <PeriodRows rows={stage.periods} onChange={(periods) => setStage(k, { periods })} bad={fieldToCell(problem?.field, `stages.${k}.periods`)} editable={editable} path={`stages.${k}.periods`} />
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setStages(stages.filter((_, j) => j !== k))}>
                  <Trash2 size={16} aria-hidden /> Remove stage {k + 1}
                </button>
              </fieldset>
            ))}
            <div>
              <button type="button" className="btn btn-secondary btn-sm"
                onClick={() => setStages([...stages, { name: '', fromDay: stages.length === 0 ? '1' : String((Number(stages.at(-1)!.fromDay) || 0) + 14), photoperiodHours: '', periods: rows.map((r) => ({ ...r })) }])}>
                <Plus size={16} aria-hidden /> Add stage
              </button>
            </div>
          </>
        )}
      </fieldset>

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
