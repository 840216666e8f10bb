// The rule preview in the Automation Settings dialog: the rules being edited replayed over the recorded
// history by the server (touching nothing), drawn as a strip of on-periods with switches, hours on
// and energy.
import { useState } from 'react';
import type { AutomationPreview, AutomationRules } from '../../../../../server/contract/device.ts';
import { errorMessage } from '../../../api/client.ts';
import { previewAutomation } from '../../../api/automation.ts';

const RANGES = [
  { hours: 24, label: 'Last 24 hours' },
  { hours: 72, label: 'Last 3 days' },
  { hours: 168, label: 'Last 7 days' },
];

interface Props {
  deviceId: string;
  /** The rules as edited, or an error text when a field is not valid yet. */
  rules: Partial<AutomationRules> | string;
}

export function PreviewPanel({ deviceId, rules }: Props) {
  const [hours, setHours] = useState(24);
  const [result, setResult] = useState<{ preview: AutomationPreview; fromMs: number; toMs: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run() {
    if (typeof rules === 'string') {
      setError(rules);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const preview = await previewAutomation(deviceId, rules, hours);
      const fromMs = Date.parse(preview.timeline[0]!.at);
      setResult({ preview, fromMs, toMs: fromMs + hours * 3_600_000 });
    } catch (err) {
      setResult(null);
      setError(errorMessage(err, 'Failed to preview the rules'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="automation-preview" data-testid="automation-preview">
      <div className="row">
        <select aria-label="Preview range" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
          {RANGES.map((r) => (
            <option key={r.hours} value={r.hours}>
              {r.label}
            </option>
          ))}
        </select>
        {/* A week's replay can take a minute or two on a Pi: say that it is under way. */}
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void run()} disabled={busy} aria-busy={busy}>
          {busy ? 'Previewing…' : 'Preview'}
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {result && <PreviewResult {...result} />}
    </div>
  );
}

function PreviewResult({ preview, fromMs, toMs }: { preview: AutomationPreview; fromMs: number; toMs: number }) {
  const spanMs = toMs - fromMs;
  const segments: Array<{ leftPct: number; widthPct: number; title: string }> = [];
  preview.timeline.forEach((step, i) => {
    if (step.status !== 'ON' && step.status !== 'OPEN') return;
    const startMs = Date.parse(step.at);
    const endMs = i + 1 < preview.timeline.length ? Date.parse(preview.timeline[i + 1]!.at) : toMs;
    segments.push({
      leftPct: ((startMs - fromMs) / spanMs) * 100,
      widthPct: Math.max(0.3, ((endMs - startMs) / spanMs) * 100),
      title: `${new Date(startMs).toLocaleString()}: ${step.reason}`,
    });
  });
  const hoursOn = preview.onSeconds / 3600;
  return (
    <div>
      <div className="preview-strip" role="img" aria-label={`On ${segments.length} time(s) in the window`} data-testid="preview-strip">
        {segments.map((s, i) => (
          <span key={i} className="preview-on" style={{ left: `${s.leftPct}%`, width: `${s.widthPct}%` }} title={s.title} />
        ))}
      </div>
      <div className="preview-axis muted">
        <span>{new Date(fromMs).toLocaleString()}</span>
        <span>now</span>
      </div>
      <p data-testid="preview-summary">
        {preview.switches} switch{preview.switches === 1 ? '' : 'es'} · {hoursOn.toFixed(1)} h on · {preview.energyWh.toFixed(0)} Wh
      </p>
      {preview.irrigation && (
        <p data-testid="preview-irrigation">
          Irrigation: {preview.irrigation.pulses} pulse{preview.irrigation.pulses === 1 ? '' : 's'} · {Math.round(preview.irrigation.runSeconds)} s
          {preview.irrigation.litres === null ? '' : ` · ${preview.irrigation.litres.toFixed(1)} L`}
          {preview.irrigation.noEffectCycles > 0 &&
            ` · ${preview.irrigation.noEffectCycles} cycle(s) ended at the pulse limit; the recorded soil did not get this water, so live each would have checked for a rise`}
        </p>
      )}
      <p className="field-hint">Replayed over the recorded readings with the same deadbands, minimum times and schedule; safety cut-offs are not replayed.</p>
    </div>
  );
}
