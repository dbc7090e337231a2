/**
 * An event's RMS trace (Urms(1/2) in % of Uref) as a uPlot chart: time in ms from the event's
 * start, the dip and swell thresholds (90 %, 110 %) drawn as dashed lines, the readout in % and V.
 */
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import { ChartFrame } from "../../charts/chart-frame.tsx";
import { chartPng, fileNameOf, saveBlob, toCsv } from "../../charts/export.ts";
import { PHASE_COLORS } from "../../charts/mod.ts";
import { useCanvasTheme, useUplot } from "../../charts/use-uplot.ts";
import { useFormatters } from "../../lib/use-formatters.ts";

export function TraceChart({ title, startOffsetMs, intervalMs, valuesPct, nominalV, phase }: {
  title: string;
  /** Time of the first value relative to the event's start (negative: before it). */
  startOffsetMs: number;
  intervalMs: number;
  valuesPct: readonly number[];
  nominalV: number;
  phase: "L1" | "L2" | "L3";
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  const theme = useCanvasTheme();
  const container = useRef<HTMLDivElement>(null);
  const times = useMemo(
    () => valuesPct.map((_, k) => startOffsetMs + k * intervalMs),
    [valuesPct, startOffsetMs, intervalMs],
  );
  const data = useMemo<uPlot.AlignedData>(
    () => [times, [...valuesPct], times.map(() => 90), times.map(() => 110)],
    [times, valuesPct],
  );
  const pct = (v: number) => `${format.number(v, 1)} %`;
  const makeOptions = (width: number): uPlot.Options => ({
    width,
    height: 240,
    scales: { x: { time: false }, y: { range: [0, Math.max(130, ...valuesPct) + 5] } },
    axes: [
      {
        stroke: theme.muted,
        grid: { stroke: theme.grid, width: 1 },
        values: (_u, splits) => splits.map((v) => `${format.number(v, 0)} ms`),
      },
      {
        stroke: theme.muted,
        grid: { stroke: theme.grid, width: 1 },
        values: (_u, splits) => splits.map((v) => `${format.number(v, 0)} %`),
        size: 56,
      },
    ],
    series: [
      { label: t("detail.timeFromStart"), value: (_u, v) => v === null ? "—" : `${v} ms` },
      {
        label: t("detail.urms", { phase }),
        stroke: theme.resolve(PHASE_COLORS[phase]),
        width: 1.5,
        points: { show: true, size: 4 },
        value: (_u, v) =>
          v === null ? "—" : `${pct(v)} (${format.number((v / 100) * nominalV, 1)} V)`,
      },
      {
        label: t("detail.dipThreshold"),
        stroke: theme.muted,
        dash: [4, 4],
        width: 1,
        points: { show: false },
        value: () => "90 %",
      },
      {
        label: t("detail.swellThreshold"),
        stroke: theme.muted,
        dash: [4, 4],
        width: 1,
        points: { show: false },
        value: () => "110 %",
      },
    ],
  });
  const optionsKey = JSON.stringify([title, theme.background, phase, nominalV, valuesPct.length]);
  const plot = useUplot(container, makeOptions, optionsKey, data, false);
  return (
    <ChartFrame
      title={title}
      testId="trace-chart"
      container={container}
      empty={valuesPct.length === 0}
      onCsv={() => {
        const csv = toCsv([
          { header: t("detail.timeFromStartMs"), cells: times },
          { header: t("detail.urmsPct"), cells: [...valuesPct] },
        ]);
        saveBlob(new Blob([csv], { type: "text/csv;charset=utf-8" }), fileNameOf(title, "csv"));
      }}
      onPng={async () => {
        const chart = plot.current;
        if (!chart) return;
        const blob = await chartPng(chart.ctx.canvas, title, [
          { label: t("detail.urms", { phase }), color: theme.resolve(PHASE_COLORS[phase]) },
        ], theme);
        if (blob) saveBlob(blob, fileNameOf(title, "png"));
      }}
    />
  );
}
