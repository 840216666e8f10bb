// The 24 h curve of a climate program: heat-below and vent-above from local midnight, today's sunrise
// and sunset drawn as dashed vertical lines (uPlot, created once, data set when it changes).
import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { ClimateCurvePoint } from '../../../../server/contract/climate.ts';
import { UPlotChart } from '../../components/UPlotChart.tsx';

const HEAT_COLOUR = '#d9480f';
const VENT_COLOUR = '#1971c2';
const SUN_COLOUR = '#f59f00';

/** Dashed vertical lines at the sun times (epoch seconds), with their names at the top. */
function sunPlugin(sun: Array<{ label: string; atS: number }>): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx } = u;
          ctx.save();
          ctx.strokeStyle = SUN_COLOUR;
          ctx.fillStyle = SUN_COLOUR;
          ctx.setLineDash([6, 4]);
          ctx.lineWidth = 2;
          ctx.font = `${12 * devicePixelRatio}px sans-serif`;
          for (const { label, atS } of sun) {
            const x = u.valToPos(atS, 'x', true);
            if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillText(label, x + 4, u.bbox.top + 14 * devicePixelRatio);
          }
          ctx.restore();
        },
      ],
    },
  };
}

export function ProgramCurve({ points, sunrise, sunset }: { points: ClimateCurvePoint[]; sunrise: string | null; sunset: string | null }) {
  const data = useMemo<uPlot.AlignedData>(
    () => [points.map((p) => Date.parse(p.at) / 1000), points.map((p) => p.heatBelowC), points.map((p) => p.ventAboveC)],
    [points],
  );
  const sun = [
    ...(sunrise ? [{ label: 'sunrise', atS: Date.parse(sunrise) / 1000 }] : []),
    ...(sunset ? [{ label: 'sunset', atS: Date.parse(sunset) / 1000 }] : []),
  ];
  const sunKey = sun.map((s) => s.atS).join(',');
  return (
    <div data-testid="climate-curve" aria-label="Targets over 24 hours">
      <UPlotChart
        optionsKey={`climate-${sunKey}`}
        data={data}
        makeOptions={(width) => ({
          width,
          height: 240,
          series: [
            {},
            { label: 'Heat below (°C)', stroke: HEAT_COLOUR, width: 2 },
            { label: 'Vent above (°C)', stroke: VENT_COLOUR, width: 2 },
          ],
          axes: [{}, { label: '°C' }],
          scales: { x: { time: true } },
          plugins: [sunPlugin(sun)],
        })}
      />
    </div>
  );
}
