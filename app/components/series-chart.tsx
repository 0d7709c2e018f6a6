/**
 * A daily bar chart of one or two series, rendered on the server as SVG (no client code): stacked
 * or side by side, with a legend, axis labels, a gridline at the maximum, and a table of the
 * numbers for screen readers.
 */
import { UTC_DATES } from "~/platform/core/dates";
export type Series = { key: string; label: string; color: string };

export function SeriesChart({
  title,
  days,
  series,
  mode = "grouped",
  labelOf,
}: {
  title: string;
  /** How a point's `date` is written (default: "Nov 27"); months pass their own ("Nov 2026"). */
  labelOf?: (date: string) => string;
  days: ({ date: string } & Record<string, number | string>)[];
  series: Series[];
  mode?: "grouped" | "stacked";
}) {
  const width = 720;
  const height = 220;
  const pad = { left: 36, right: 8, top: 12, bottom: 28 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const value = (d: Record<string, unknown>, k: string) => Number(d[k] ?? 0);
  const totals = days.map((d) =>
    mode === "stacked"
      ? series.reduce((s, x) => s + value(d, x.key), 0)
      : Math.max(...series.map((x) => value(d, x.key))),
  );
  const max = Math.max(1, ...totals);
  const slot = plotW / days.length;
  const barW = mode === "stacked" ? slot * 0.7 : (slot * 0.8) / series.length;
  const y = (v: number) => pad.top + plotH - (v / max) * plotH;
  const label = labelOf ?? ((iso: string) => UTC_DATES.calendarDay(iso, { short: true }));
  const total = totals.reduce((s, v) => s + v, 0);
  return (
    <figure className="chart">
      <figcaption>
        <strong>{title}</strong>
        <span className="legend">
          {series.map((s) => (
            <span key={s.key}>
              <i style={{ background: s.color }} aria-hidden /> {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}, last 30 days`} className="chart-svg">
        <title>{`${title}, last 30 days`}</title>
        <line x1={pad.left} x2={width - pad.right} y1={y(max)} y2={y(max)} className="grid" />
        <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} className="axis" />
        <text x={pad.left - 6} y={y(max) + 4} textAnchor="end" className="tick">
          {max}
        </text>
        <text x={pad.left - 6} y={y(0) + 4} textAnchor="end" className="tick">
          0
        </text>
        {days.map((d, i) => {
          const x0 = pad.left + i * slot + (slot - (mode === "stacked" ? barW : barW * series.length)) / 2;
          let stack = 0;
          return (
            <g key={d.date}>
              {series.map((s, k) => {
                const v = value(d, s.key);
                if (v === 0) return null;
                const top = mode === "stacked" ? y(stack + v) : y(v);
                const bottom = mode === "stacked" ? y(stack) : y(0);
                const x = mode === "stacked" ? x0 : x0 + k * barW;
                stack += v;
                return (
                  <rect
                    key={s.key}
                    x={x}
                    y={top}
                    width={Math.max(1, barW - 1)}
                    height={Math.max(0, bottom - top)}
                    fill={s.color}
                    rx={1.5}
                  >
                    <title>{`${label(d.date)}: ${v} ${s.label.toLowerCase()}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
        <text x={pad.left} y={height - 8} className="tick">
          {label(days[0].date)}
        </text>
        <text x={width - pad.right} y={height - 8} textAnchor="end" className="tick">
          {label(days[days.length - 1].date)}
        </text>
      </svg>
      {total === 0 ? <p className="muted small chart-empty">Nothing yet in the last 30 days.</p> : null}
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th>Date</th>
            {series.map((s) => (
              <th key={s.key}>{s.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <td>{d.date}</td>
              {series.map((s) => (
                <td key={s.key}>{value(d, s.key)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
