// Draws the min/max band of each line (historical points carry the lowest and highest value of their
// bucket): a spike that the bucket's mean averages away stays visible as a wider band. Drawn under the
// lines, in the line's colour, broken where the line is (a gap, `null`).
import type uPlot from 'uplot';
import type { Column, SeriesSpec } from './chart-data.ts';

export interface BandColumns {
  min: Column;
  max: Column;
}

const BAND_ALPHA_HEX = '26'; // ~15 % opacity

/** `bands()` is read at each draw, so new data needs no new plugin. Index i belongs to `series[i]`. */
export function bandPlugin(series: readonly SeriesSpec[], bands: () => readonly BandColumns[]): uPlot.Plugin {
  return {
    hooks: {
      // After the axes and grid, before the series: the band sits under its line.
      drawAxes: (u) => {
        const xs = u.data[0];
        const { ctx } = u;
        ctx.save();
        ctx.beginPath();
        ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
        ctx.clip();
        bands().forEach((band, i) => {
          const spec = series[i];
          if (!spec) return;
          ctx.fillStyle = spec.color + BAND_ALPHA_HEX;
          let run: number[] = [];
          const fill = () => {
            if (run.length > 1) {
              ctx.beginPath();
              const x = (j: number) => u.valToPos(xs[j]!, 'x', true);
              run.forEach((j, k) => (k === 0 ? ctx.moveTo : ctx.lineTo).call(ctx, x(j), u.valToPos(band.max[j]!, spec.scale, true)));
              for (const j of [...run].reverse()) ctx.lineTo(x(j), u.valToPos(band.min[j]!, spec.scale, true));
              ctx.closePath();
              ctx.fill();
            }
            run = [];
          };
          for (let j = 0; j < xs.length; j++) {
            const low = band.min[j];
            const high = band.max[j];
            if (low === null || high === null) fill(); // a gap breaks the band as it breaks the line
            else if (low !== undefined && high !== undefined) run.push(j); // undefined: another sensor's point
          }
          fill();
        });
        ctx.restore();
      },
    },
  };
}
