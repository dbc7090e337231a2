/**
 * The magnitude-duration plot: every dip, swell and interruption as a point (duration on a log
 * axis, residual or peak voltage in per unit), with the ITIC and SEMI F47 curves drawn. SVG: the
 * curves are step lines on a log axis, which uPlot's aligned data does not hold well.
 */
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../lib/use-formatters.ts";
import {
  type EventPoints,
  ITIC_LOWER,
  ITIC_UPPER,
  logPosition,
  magnitudePosition,
  SEMI_F47,
} from "./events-data.ts";

const W = 720;
const H = 360;
const PAD = { left: 56, right: 16, top: 12, bottom: 40 };
const x = (s: number) => PAD.left + logPosition(s) * (W - PAD.left - PAD.right);
const y = (pu: number) => PAD.top + magnitudePosition(pu) * (H - PAD.top - PAD.bottom);
const line = (points: readonly { pu: number; s: number }[]) =>
  points.map((p, k) => `${k ? "L" : "M"}${x(p.s).toFixed(1)},${y(p.pu).toFixed(1)}`).join(" ");

const KIND_COLOR: Record<string, string> = {
  DIP: "var(--phase-l2)",
  SWELL: "var(--phase-l1)",
  INTERRUPTION_SHORT: "var(--foreground)",
  INTERRUPTION_LONG: "var(--foreground)",
};

export function MagnitudePlot({ points, onOpen }: {
  points: EventPoints;
  onOpen: (key: string) => void;
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  const decades = [0.001, 0.01, 0.1, 1, 10, 100, 1000];
  const levels = [0, 0.5, 1, 1.5, 2];
  return (
    <figure className="flex flex-col gap-2" aria-label={t("plot.title")}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="w-full max-w-4xl text-muted-foreground"
        role="img"
        aria-label={t("plot.title")}
        data-testid="magnitude-plot"
      >
        {decades.map((s) => (
          <g key={s}>
            <line x1={x(s)} x2={x(s)} y1={PAD.top} y2={H - PAD.bottom} stroke="var(--border)" />
            <text
              x={x(s)}
              y={H - PAD.bottom + 14}
              textAnchor="middle"
              fontSize="10"
              fill="currentColor"
            >
              {`${format.number(s, s < 1 ? 3 : 0)} s`}
            </text>
          </g>
        ))}
        {levels.map((pu) => (
          <g key={pu}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(pu)} y2={y(pu)} stroke="var(--border)" />
            <text x={PAD.left - 6} y={y(pu) + 3} textAnchor="end" fontSize="10" fill="currentColor">
              {`${format.number(pu, 1)} pu`}
            </text>
          </g>
        ))}
        <text
          x={(W + PAD.left) / 2}
          y={H - 6}
          textAnchor="middle"
          fontSize="11"
          fill="currentColor"
        >
          {t("plot.duration")}
        </text>
        <path d={line(ITIC_UPPER)} fill="none" stroke="var(--state-critical)" strokeWidth="1.5" />
        <path d={line(ITIC_LOWER)} fill="none" stroke="var(--state-critical)" strokeWidth="1.5" />
        <path
          d={line(SEMI_F47)}
          fill="none"
          stroke="var(--state-warning)"
          strokeWidth="1.5"
          strokeDasharray="5 3"
        />
        {points.points.map((p) => (
          <circle
            key={p.key}
            cx={x(p.duration_ms / 1000)}
            cy={y(p.extreme_pct / 100)}
            r="3.5"
            fill={KIND_COLOR[p.kind] ?? "currentColor"}
            fillOpacity="0.75"
            className="cursor-pointer"
            onClick={() => onOpen(p.key)}
          >
            <title>
              {t("plot.point", {
                kind: t(`kinds.${p.kind}`),
                pct: format.number(p.extreme_pct, 1),
                ms: format.number(p.duration_ms, 0),
              })}
            </title>
          </circle>
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        <span>
          <span className="mr-1 inline-block h-0.5 w-4 bg-state-critical align-middle" />
          {t("curves.ITIC")}
        </span>
        <span>
          <span className="mr-1 inline-block h-0.5 w-4 bg-state-warning align-middle" />
          {t("curves.SEMI_F47")}
        </span>
        <span>{t("plot.count", { n: points.points.length })}</span>
        {points.truncated ? <span>{t("plot.truncated")}</span> : null}
      </figcaption>
    </figure>
  );
}
