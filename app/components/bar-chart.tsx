/**
 * A small bar chart drawn as inline SVG on the server (no script needed). Screen readers get the
 * chart's summary from aria-label and the numbers from a visually hidden table.
 */
import { formatCount } from "~/platform/core/dates";

export type BarChartPoint = { date: string; value: number };

const W = 900;
const H = 180;
const PAD = { top: 4, right: 6, bottom: 2, left: 6 };

const plain = (n: number) => formatCount(n);
const asIs = (date: string) => date;

export function BarChart({
  series,
  label,
  formatValue = plain,
  formatDate = asIs,
}: {
  series: BarChartPoint[];
  label: string;
  formatValue?: (n: number) => string;
  /** a day "YYYY-MM-DD" as the reader reads it (the shop's locale) */
  formatDate?: (date: string) => string;
}) {
  const max = series.reduce((m, p) => Math.max(m, p.value), 0);
  const total = series.reduce((s, p) => s + p.value, 0);
  const first = series[0] ? formatDate(series[0].date) : "";
  const last = series.length ? formatDate(series[series.length - 1].date) : "";
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = series.length ? plotW / series.length : plotW;
  const barW = Math.max(1, slot * 0.72);
  const baseline = PAD.top + plotH;
  const summary = series.length
    ? `${label}, ${first} to ${last}: total ${formatValue(total)}, highest day ${formatValue(max)}`
    : `${label}: no data`;

  return (
    <figure className="bar-chart">
      {/* the words are HTML beside the drawing, so that they keep their size when it shrinks on a phone */}
      <div className="bar-chart-label bar-chart-max" aria-hidden>
        {max > 0 ? `max ${formatValue(max)}` : "No data in this period"}
      </div>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        width="100%"
        focusable="false"
      >
        <title>{summary}</title>
        {/* gridline at the highest value */}
        <line className="bar-chart-grid" x1={PAD.left} x2={W - PAD.right} y1={PAD.top} y2={PAD.top} />
        {series.map((p, i) => {
          const h = max > 0 ? (p.value / max) * plotH : 0;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <rect
              key={p.date}
              className="bar-chart-bar"
              x={x}
              y={baseline - h}
              width={barW}
              height={h}
              rx={Math.min(2, barW / 4)}
            >
              <title>{`${formatDate(p.date)}: ${formatValue(p.value)}`}</title>
            </rect>
          );
        })}
        <line className="bar-chart-axis" x1={PAD.left} x2={W - PAD.right} y1={baseline} y2={baseline} />
      </svg>
      <div className="bar-chart-label bar-chart-dates" aria-hidden>
        <span>{first}</span>
        <span>{last}</span>
      </div>
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">{label}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((p) => (
            <tr key={p.date}>
              <th scope="row">{formatDate(p.date)}</th>
              <td>{formatValue(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
