import { useAtomValue } from "jotai";
import { ZoomOut } from "lucide-react";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import { customerAtom } from "../lib/session-atoms.ts";
import { useFormatters } from "../lib/use-formatters.ts";
import { Button } from "../ui/button.tsx";
import { ChartFrame } from "./chart-frame.tsx";
import { chartPng, fileNameOf, saveBlob, toCsv } from "./export.ts";
import { useCanvasTheme, useUplot } from "./use-uplot.ts";

/** One curve of a chart. */
export interface ChartSeries {
  /** Legend text, e.g. "L1 U" or "Feeder 3". */
  label: string;
  /** "V", "A", "kW", "kvar", "%", "Hz" or "" (shown in the readout and on the axis). */
  unit: string;
  /** A CSS colour (PHASE_COLORS, compareColor(k), a token as var(--name)). */
  color: string;
  /** One value per time; null is a gap and is drawn as one. */
  values: ArrayLike<number | null>;
  /** Series with the same scale share an axis; by default the unit is the scale. */
  scale?: string;
  /**
   * Text of a value on the axis and in the readout (e.g. On/Off of a digital state); by
   * default the number in the customer's format with the unit. Null: no tick label there.
   */
  formatValue?: (value: number) => string | null;
}

export interface TimeChartProps {
  /** Accessible name and export file name. */
  title: string;
  /** Epoch milliseconds. */
  times: ArrayLike<number>;
  series: readonly ChartSeries[];
  height?: number;
  /** Step lines (digital states). */
  step?: boolean;
  yRange?: [number, number];
  /** Drag-zoom reports the range instead of zooming the chart (e.g. to change the period). */
  onZoom?: (fromMs: number, toMs: number) => void;
}

const DAY_MS = 86_400_000;
/** The scale of a series: its own, its unit, or one shared by unitless series. */
const scaleOf = (s: ChartSeries) => s.scale ?? (s.unit || "value");

const hasValue = (values: ArrayLike<number | null>) => {
  for (let k = 0; k < values.length; k++) if (values[k] !== null) return true;
  return false;
};

/**
 * A time-series chart: gaps stay gaps, the legend toggles series, the cursor reads values with
 * units in the customer's formats and timezone, drag zooms (double-click or the button resets),
 * and the toolbar downloads PNG and CSV.
 */
export function TimeChart(
  { title, times, series, height = 260, step = false, yRange, onZoom }: TimeChartProps,
) {
  const { t } = useTranslation("common");
  const format = useFormatters();
  const timeZone = useAtomValue(customerAtom)?.default_timezone ?? "UTC";
  const theme = useCanvasTheme();
  const container = useRef<HTMLDivElement>(null);
  const [zoomed, setZoomed] = useState(false);
  const onZoomRef = useRef(onZoom);
  onZoomRef.current = onZoom;

  const data = useMemo<uPlot.AlignedData>(
    () =>
      [
        Array.from(times),
        ...series.map((s) => Array.from(s.values, (v) => (v === null ? null : v))),
      ] as uPlot.AlignedData,
    [times, series],
  );
  const scales = useMemo(() => [...new Set(series.map(scaleOf))], [series]);
  const optionsKey = JSON.stringify([
    title,
    height,
    step,
    yRange,
    timeZone,
    theme.background,
    series.map((s) => [s.label, s.unit, s.color, s.scale]),
    Boolean(onZoom),
    format.number(1.5),
    format.dateTime(0),
  ]);

  const makeOptions = (width: number): uPlot.Options => {
    const axisValues = (scale: string) => {
      const first = series.find((s) => scaleOf(s) === scale);
      return (_: uPlot, splits: number[]) => {
        const own = first?.formatValue;
        if (own) return splits.map((v) => own(v) ?? "");
        const digits = splits.every((v) => Number.isInteger(v)) ? 0 : 2;
        return splits.map((v) => `${format.number(v, digits)} ${first?.unit ?? ""}`.trim());
      };
    };
    // Time ticks in the customer's formats and timezone: dates from a day apart, else times
    // with the date under the first tick of each new day (under the first tick only when the
    // range stays within one day, so that two dates never crowd each other).
    const timeValues = (
      _: uPlot,
      splits: number[],
      _axis: number,
      _space: number,
      incr: number,
    ) => {
      if (incr >= DAY_MS) return splits.map((ms) => format.date(ms));
      const dates = splits.map((ms) => format.date(ms));
      const newDay = dates.map((d, k) => k > 0 && d !== dates[k - 1]);
      const oneDay = !newDay.includes(true);
      return splits.map((ms, k) =>
        newDay[k] || (k === 0 && oneDay) ? `${format.time(ms)}\n${dates[k]}` : format.time(ms)
      );
    };
    const paths = step ? uPlot.paths.stepped!({ align: 1 }) : undefined;
    return {
      width,
      height,
      ms: 1,
      tzDate: (ms) => uPlot.tzDate(new Date(ms), timeZone),
      cursor: {
        drag: { x: true, y: false, setScale: !onZoom },
      },
      legend: { live: true },
      scales: {
        x: { time: true },
        ...Object.fromEntries(
          scales.map((scale) => [scale, yRange ? { range: yRange } : { auto: true }]),
        ),
      },
      axes: [
        {
          stroke: theme.muted,
          grid: { stroke: theme.grid, width: 1 },
          ticks: { show: false },
          values: timeValues,
          size: 48,
        },
        ...scales.slice(0, 2).map((scale, k): uPlot.Axis => ({
          scale,
          side: k === 0 ? 3 : 1,
          stroke: theme.muted,
          grid: { show: k === 0, stroke: theme.grid, width: 1 },
          ticks: { show: false },
          values: axisValues(scale),
          size: 72,
        })),
      ],
      series: [
        { label: t("chart.time"), value: (_u, v) => (v === null ? "—" : format.dateTime(v)) },
        ...series.map((s): uPlot.Series => ({
          label: s.label,
          scale: scaleOf(s),
          stroke: theme.resolve(s.color),
          width: 1.5,
          spanGaps: false,
          points: { show: false },
          ...(paths ? { paths } : {}),
          value: (_u, v) =>
            v === null || v === undefined
              ? "—"
              : s.formatValue?.(v) ?? `${format.number(v)} ${s.unit}`.trim(),
        })),
      ],
      hooks: {
        setSelect: [(u) => {
          const handler = onZoomRef.current;
          if (!handler || u.select.width < 3) return;
          const from = u.posToVal(u.select.left, "x");
          const to = u.posToVal(u.select.left + u.select.width, "x");
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          handler(Math.round(from), Math.round(to));
        }],
        setScale: [(u, key) => {
          if (key !== "x") return;
          const xs = u.data[0];
          const first = xs[0];
          const last = xs[xs.length - 1];
          const { min, max } = u.scales.x ?? {};
          setZoomed(
            first !== undefined && last !== undefined && min !== undefined && max !== undefined &&
              (min > first || max < last),
          );
        }],
      },
    };
  };

  const plot = useUplot(container, makeOptions, optionsKey, data, zoomed);

  const downloadCsv = () => {
    const csv = toCsv([
      { header: t("chart.timeUtc"), cells: Array.from(times, (ms) => new Date(ms).toISOString()) },
      ...series.map((s) => ({
        header: s.unit ? `${s.label} (${s.unit})` : s.label,
        cells: s.values,
      })),
    ]);
    saveBlob(new Blob([csv], { type: "text/csv;charset=utf-8" }), fileNameOf(title, "csv"));
  };
  const downloadPng = async () => {
    const chart = plot.current;
    if (!chart) return;
    const legend = series
      .filter((_, k) => chart.series[k + 1]?.show !== false)
      .map((s) => ({ label: s.label, color: theme.resolve(s.color) }));
    const blob = await chartPng(chart.ctx.canvas, title, legend, theme);
    if (blob) saveBlob(blob, fileNameOf(title, "png"));
  };
  const empty = times.length === 0 || !series.some((s) => hasValue(s.values));

  return (
    <ChartFrame
      title={title}
      testId="time-chart"
      container={container}
      empty={empty}
      onPng={downloadPng}
      onCsv={downloadCsv}
      actions={zoomed && (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            const chart = plot.current;
            const xs = chart?.data[0];
            if (!chart || !xs?.length) return;
            chart.setScale("x", { min: xs[0]!, max: xs[xs.length - 1]! });
          }}
        >
          <ZoomOut aria-hidden />
          {t("chart.resetZoom")}
        </Button>
      )}
    />
  );
}
