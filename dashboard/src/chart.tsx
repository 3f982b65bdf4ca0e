import { useId } from 'preact/hooks';
import { formatDate, formatShortTime } from './format';

/**
 * A small line chart drawn as inline SVG (no chart library: the dashboard
 * runs under a strict CSP and ships no dependency for one chart). Time runs
 * along x; each series is one polyline, coloured by its position (classes
 * series-0 … series-5, so the palette follows the colour scheme), named in a
 * legend beside it. Markers are points in time drawn across the plot, each
 * with a native tooltip (an SVG <title>). The SVG is one image to assistive
 * technology, with its title and a description of what it shows; the
 * numbers themselves are in the tables next to it.
 */

export interface LineSeries {
  /** Stable key and legend text. */
  label: string;
  /** [time in ms, value], oldest first. */
  points: readonly (readonly [number, number])[];
}

export interface ChartMarker {
  /** Time in ms. */
  at: number;
  /** The tooltip: what happened then. */
  label: string;
}

const W = 720;
const H = 220;
/** Room for the y labels on the left and the x labels below. */
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };
/** Colours cycle after this many series. */
const PALETTE = 6;

/** [min, max] of `values`, widened when flat so that a constant line sits mid-plot. */
function extent(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1e-9) {
    const pad = Math.abs(hi) > 0 ? Math.abs(hi) * 0.05 : 1;
    lo -= pad;
    hi += pad;
  }
  return [lo, hi];
}

/** A day or more: dates; less: times of day. */
function timeLabel(ms: number, span: number): string {
  const iso = new Date(ms).toISOString();
  return span >= 86_400_000 ? formatDate(iso) : formatShortTime(iso);
}

export function LineChart({
  title,
  description,
  series,
  markers = [],
  formatValue,
  kind,
}: {
  title: string;
  description: string;
  series: readonly LineSeries[];
  markers?: readonly ChartMarker[];
  formatValue: (v: number) => string;
  /** Names the chart for styling and tests (data-chart). */
  kind: string;
}) {
  const id = useId();
  const times = series.flatMap((s) => s.points.map((p) => p[0])).concat(markers.map((m) => m.at));
  const [x0, x1] = times.length > 0 ? [Math.min(...times), Math.max(...times)] : [0, 1];
  const [y0, y1] = extent(series.flatMap((s) => s.points.map((p) => p[1])));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + (x1 > x0 ? ((t - x0) / (x1 - x0)) * plotW : plotW / 2);
  const y = (v: number) => PAD.top + (1 - (v - y0) / (y1 - y0)) * plotH;
  const ticks = [y1, (y0 + y1) / 2, y0];

  return (
    <figure class="line-chart" data-chart={kind}>
      <svg class="line-chart-svg" role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${W} ${H}`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((v, i) => (
          <g key={i} class="chart-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v).toFixed(1)} y2={y(v).toFixed(1)} />
            <text x={PAD.left - 6} y={y(v).toFixed(1)} text-anchor="end" dominant-baseline="middle">
              {formatValue(v)}
            </text>
          </g>
        ))}
        {times.length > 0 && (
          <g class="chart-grid">
            <text x={PAD.left} y={H - 8} text-anchor="start">
              {timeLabel(x0, x1 - x0)}
            </text>
            <text x={W - PAD.right} y={H - 8} text-anchor="end">
              {timeLabel(x1, x1 - x0)}
            </text>
          </g>
        )}
        {series.map((s, i) => (
          <polyline
            key={s.label}
            class={`chart-line series-${i % PALETTE}`}
            data-series={s.label}
            fill="none"
            points={s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
          />
        ))}
        {markers.map((m) => (
          <g key={`${m.at}-${m.label}`} class="chart-marker" data-marker-at={new Date(m.at).toISOString()}>
            <title>{m.label}</title>
            <line x1={x(m.at).toFixed(1)} x2={x(m.at).toFixed(1)} y1={PAD.top} y2={H - PAD.bottom} />
            <path d={`M ${x(m.at).toFixed(1)} ${H - PAD.bottom - 7} l 5 7 l -10 0 z`} />
            {/* A band wider than the dashed line, so that its tooltip is easy to hover. */}
            <rect class="chart-marker-hit" x={(x(m.at) - 5).toFixed(1)} y={PAD.top} width="10" height={plotH} />
          </g>
        ))}
      </svg>
      <figcaption>
        <ul class="chart-legend">
          {series.map((s, i) => (
            <li key={s.label}>
              <span class={`legend-swatch series-${i % PALETTE}`} aria-hidden="true" />
              {s.label}
            </li>
          ))}
          {markers.length > 0 && (
            <li>
              <span class="legend-swatch legend-marker" aria-hidden="true" />
              Move
            </li>
          )}
        </ul>
      </figcaption>
    </figure>
  );
}
