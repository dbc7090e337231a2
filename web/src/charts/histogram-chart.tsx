import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import { useFormatters } from "../lib/use-formatters.ts";
import { ChartFrame } from "./chart-frame.tsx";
import { chartPng, fileNameOf, saveBlob, toCsv } from "./export.ts";
import { useCanvasTheme, useUplot } from "./use-uplot.ts";

/** One bar: values from `from` (inclusive) to `to`. */
export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

export interface HistogramChartProps {
  title: string;
  bins: readonly HistogramBin[];
  /** Unit of the x axis. */
  unit: string;
  color: string;
  height?: number;
}

/** A histogram: bars per bin, readout "from–to unit: count (share %)", PNG and CSV download. */
export function HistogramChart({ title, bins, unit, color, height = 260 }: HistogramChartProps) {
  const { t } = useTranslation("common");
  const format = useFormatters();
  const theme = useCanvasTheme();
  const container = useRef<HTMLDivElement>(null);
  const total = bins.reduce((sum, b) => sum + b.count, 0);

  const data = useMemo<uPlot.AlignedData>(
    () => [bins.map((b) => (b.from + b.to) / 2), bins.map((b) => b.count)],
    [bins],
  );
  const rangeOf = (k: number) => {
    const bin = bins[k];
    return bin ? `${format.number(bin.from)}–${format.number(bin.to)} ${unit}`.trim() : "—";
  };
  const optionsKey = JSON.stringify([title, height, unit, color, theme.background, bins.length]);
  const first = bins[0];
  const last = bins[bins.length - 1];

  const makeOptions = (width: number): uPlot.Options => ({
    width,
    height,
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    legend: { live: true },
    scales: {
      x: {
        time: false,
        range: () => [first?.from ?? 0, last?.to ?? 1],
      },
      y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.05)] },
    },
    axes: [
      {
        stroke: theme.muted,
        grid: { show: false },
        label: unit,
        labelSize: 18,
        values: (_u, splits) => splits.map((v) => format.number(v)),
      },
      {
        stroke: theme.muted,
        grid: { stroke: theme.grid, width: 1 },
        ticks: { show: false },
        values: (_u, splits) => splits.map((v) => format.number(v, 0)),
        size: 56,
      },
    ],
    series: [
      {
        label: unit || t("chart.value"),
        value: (_u, _v, _s, k) => (k === null ? "—" : rangeOf(k)),
      },
      {
        label: t("chart.count"),
        stroke: theme.resolve(color),
        fill: theme.resolve(color),
        paths: uPlot.paths.bars!({ size: [0.92, Infinity], align: 0 }),
        points: { show: false },
        value: (_u, v) =>
          v === null || v === undefined
            ? "—"
            : `${format.number(v, 0)} (${format.number(total ? (100 * v) / total : 0, 1)} %)`,
      },
    ],
  });

  const plot = useUplot(container, makeOptions, optionsKey, data, false);

  const downloadCsv = () => {
    const csv = toCsv([
      {
        header: unit ? `${t("chart.from")} (${unit})` : t("chart.from"),
        cells: bins.map((b) => b.from),
      },
      { header: unit ? `${t("chart.to")} (${unit})` : t("chart.to"), cells: bins.map((b) => b.to) },
      { header: t("chart.count"), cells: bins.map((b) => b.count) },
    ]);
    saveBlob(new Blob([csv], { type: "text/csv;charset=utf-8" }), fileNameOf(title, "csv"));
  };
  const downloadPng = async () => {
    const chart = plot.current;
    if (!chart) return;
    const legend = [{ label: t("chart.count"), color: theme.resolve(color) }];
    const blob = await chartPng(chart.ctx.canvas, title, legend, theme);
    if (blob) saveBlob(blob, fileNameOf(title, "png"));
  };

  return (
    <ChartFrame
      title={title}
      testId="histogram-chart"
      container={container}
      empty={total === 0}
      onPng={downloadPng}
      onCsv={downloadCsv}
    />
  );
}
