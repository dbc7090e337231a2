/**
 * The charts of the statistics screen: one time-series chart per feeder and parameter (one
 * /vsm/series call), or one histogram per feeder and parameter with its summary.
 */
import { useTranslation } from "react-i18next";
import {
  type ChartSeries,
  HistogramChart,
  type Phase,
  PHASE_COLORS,
  TimeChart,
} from "../../charts/mod.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import type { Voltage } from "../../lib/voltage.ts";
import { Loader } from "../../ui/loader.tsx";
import { ChartCard, useParameterLabel } from "./chart-card.tsx";
import { LoadProblem } from "./chart-notice.tsx";
import type { Period } from "./period.ts";
import type { Parameter, PhaseChoice } from "./selection.ts";
import { feederLabel, type FeederPlace } from "./structure.ts";
import { type SeriesChart, vsmApi } from "./vsm-api.ts";

/** Not per phase (f, unbalance, ...) or all phases pooled: the primary colour. */
const SINGLE_COLOR = "var(--primary)";

const CHART_GRID = "grid gap-3 2xl:grid-cols-2";

/** "TS Seeblick › LV line 1, Voltage U, 21.11.2026 00:00 – 22.11.2026 00:00" (title, file name). */
function useChartTitle(period: Period) {
  const format = useFormatters();
  const { t } = useTranslation("statistics");
  return (feeder: string, parameter: string) =>
    `${feeder}, ${parameter}, ${
      t("period.shown", { from: format.dateTime(period.from), to: format.dateTime(period.to) })
    }`;
}

function seriesOf(
  chart: SeriesChart,
  phase: PhaseChoice,
  minMax: boolean,
  symbol: string,
  statLabel: (stat: "min" | "max") => string,
): ChartSeries[] {
  const wanted = chart.series.filter((s) =>
    (phase === "all" || s.phase === null || s.phase === phase) && (minMax || s.stat === "mean")
  );
  // Means first, then min and max, each in phase order.
  const order = { mean: 0, min: 1, max: 2 };
  return wanted.sort((a, b) => order[a.stat] - order[b.stat]).map((s) => ({
    label: [s.phase, symbol, s.stat === "mean" ? null : statLabel(s.stat)].filter(Boolean).join(
      " ",
    ),
    unit: chart.unit,
    color: s.phase ? PHASE_COLORS[s.phase as Phase] : SINGLE_COLOR,
    values: s.values,
  }));
}

export function TimeSeriesCharts({
  feeders,
  parameters,
  places,
  phase,
  minMax,
  voltage,
  period,
  onZoom,
}: {
  feeders: string[];
  parameters: Parameter[];
  places: ReadonlyMap<string, FeederPlace>;
  phase: PhaseChoice;
  minMax: boolean;
  voltage: Voltage;
  period: Period;
  onZoom: (from: number, to: number) => void;
}) {
  const { t } = useTranslation("statistics");
  const parameterLabel = useParameterLabel();
  const titleOf = useChartTitle(period);
  const load = useAsync(
    (signal) => vsmApi.series({ feeders, parameters, voltage, period }, signal),
    [feeders.join(","), parameters.join(","), voltage, period.from, period.to],
  );
  if (load.status === "loading") return <Loader className="min-h-64" />;
  if (load.status === "error") return <LoadProblem error={load.error} onRetry={load.reload} />;
  const answer = load.data;
  return (
    <div className={CHART_GRID}>
      {answer.charts.map((chart) => {
        const place = places.get(chart.feeder_id);
        const feeder = place ? feederLabel(place) : `${chart.node_name} › ${chart.feeder_name}`;
        const parameter = parameterLabel(chart.parameter, chart.unit);
        return (
          <ChartCard
            key={`${chart.feeder_id}|${chart.parameter}`}
            title={feeder}
            subtitle={parameter}
            resolution={answer.resolution}
          >
            <TimeChart
              title={titleOf(feeder, parameter)}
              times={answer.times}
              series={seriesOf(
                chart,
                phase,
                minMax,
                t(`symbols.${chart.parameter}`),
                (stat) => t(`stats.${stat}`),
              )}
              onZoom={onZoom}
            />
          </ChartCard>
        );
      })}
    </div>
  );
}

export function HistogramCharts({
  feeders,
  parameters,
  places,
  perPhase,
  phase,
  voltage,
  period,
}: {
  feeders: string[];
  parameters: Parameter[];
  places: ReadonlyMap<string, FeederPlace>;
  /** Whether a parameter is measured per phase (frequency and unbalance are not). */
  perPhase: (parameter: Parameter) => boolean;
  phase: PhaseChoice;
  voltage: Voltage;
  period: Period;
}) {
  return (
    <div className={CHART_GRID}>
      {feeders.flatMap((feeder) =>
        parameters.map((parameter) => (
          <HistogramCard
            key={`${feeder}|${parameter}`}
            feeder={feeder}
            place={places.get(feeder)}
            parameter={parameter}
            phase={perPhase(parameter) ? phase : "all"}
            voltage={voltage}
            period={period}
          />
        ))
      )}
    </div>
  );
}

function HistogramCard({
  feeder,
  place,
  parameter,
  phase,
  voltage,
  period,
}: {
  feeder: string;
  place: FeederPlace | undefined;
  parameter: Parameter;
  phase: PhaseChoice;
  voltage: Voltage;
  period: Period;
}) {
  const { t } = useTranslation("statistics");
  const format = useFormatters();
  const parameterLabel = useParameterLabel();
  const titleOf = useChartTitle(period);
  const load = useAsync(
    (signal) => vsmApi.histogram({ feeder, parameter, phase, voltage, period }, signal),
    [feeder, parameter, phase, voltage, period.from, period.to],
  );
  const name = place ? feederLabel(place) : feeder;
  const unit = load.status === "success" ? load.data.unit : "";
  const subtitle = `${parameterLabel(parameter, unit)}${
    phase === "all" ? "" : ` · ${t(`phases.${phase}`)}`
  }`;
  const value = (v: number | null) => (v === null ? "–" : `${format.number(v)} ${unit}`.trim());
  return (
    <ChartCard
      title={name}
      subtitle={subtitle}
      resolution={load.status === "success" ? load.data.resolution : undefined}
    >
      {load.status === "loading"
        ? <Loader className="min-h-64" />
        : load.status === "error"
        ? <LoadProblem error={load.error} onRetry={load.reload} className="min-h-64" />
        : (
          <>
            <HistogramChart
              title={titleOf(name, subtitle)}
              bins={load.data.bins}
              unit={unit}
              color={phase === "all" ? SINGLE_COLOR : PHASE_COLORS[phase]}
            />
            <dl className="grid grid-cols-3 gap-x-4 gap-y-1 border-t pt-2 text-xs lg:grid-cols-6">
              {(["count", "min", "max", "mean", "p05", "p95"] as const).map((key) => (
                <div key={key} className="flex flex-col">
                  <dt className="text-muted-foreground">{t(`histogram.${key}`)}</dt>
                  <dd className="tabular font-medium text-foreground">
                    {key === "count" ? format.number(load.data.count, 0) : value(load.data[key])}
                  </dd>
                </div>
              ))}
            </dl>
          </>
        )}
    </ChartCard>
  );
}
