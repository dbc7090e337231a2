/**
 * /visual-statistics/statistics: time series or histograms of the selected feeders and
 * parameters over a period. The whole selection lives in the URL (selection.ts).
 */
import { getRouteApi } from "@tanstack/react-router";
import { BarChart3 } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { voltageOf } from "../../lib/voltage.ts";
import { Button } from "../../ui/button.tsx";
import { Notice } from "../../ui/notice.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { Switch } from "../../ui/switch.tsx";
import { ChartNotice, Labelled } from "./chart-notice.tsx";
import { PeriodPicker } from "./period-picker.tsx";
import { resolvePeriod, zoomPeriod } from "./period.ts";
import {
  CHART_TYPES,
  maxFeedersFor,
  type Parameter,
  PHASE_CHOICES,
  statisticsFromSearch,
  statisticsProblem,
  type StatisticsSelection,
  statisticsToSearch,
  toggleLimited,
} from "./selection.ts";
import { HistogramCharts, TimeSeriesCharts } from "./statistics-charts.tsx";
import { StatisticsLayout } from "./statistics-layout.tsx";
import { splitFeeders } from "./structure.ts";
import { SelectionWarnings } from "./selection-warnings.tsx";
import { useSearchPatch, useStatisticsBase } from "./use-statistics-base.ts";
import type { ParametersAnswer } from "./vsm-api.ts";

const route = getRouteApi("/visual-statistics/statistics");

export function StatisticsPage() {
  const { t } = useTranslation(["statistics", "errors"]);
  const search = route.useSearch();
  const voltage = voltageOf(search);
  const searchKey = JSON.stringify(statisticsToSearch(statisticsFromSearch(search)));
  const selection = useMemo(() => statisticsFromSearch(search), [searchKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const base = useStatisticsBase(voltage);
  const patch = useSearchPatch("/visual-statistics/statistics");
  const [refresh, setRefresh] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const periodKey = JSON.stringify(selection.period);
  const now = useMemo(() => Date.now(), [periodKey, refresh]); // eslint-disable-line react-hooks/exhaustive-deps
  const period = resolvePeriod(selection.period, now);
  const maxCharts = base.parameters.status === "success"
    ? base.parameters.data.limits.max_charts
    : Number.POSITIVE_INFINITY;

  const update = (next: Partial<StatisticsSelection>, push = false) => {
    setRefusal(null);
    patch(statisticsToSearch({ ...selection, ...next }), push);
  };
  const toggleFeeder = (id: string) => {
    const max = maxFeedersFor(selection.parameters.length, maxCharts);
    const feeders = toggleLimited(selection.feeders, id, max);
    if (feeders) update({ feeders });
    else {
      setRefusal(t("limits.refusedFeeder", {
        max: maxCharts,
        with: t("limits.withParameters", { count: selection.parameters.length }),
        fit: t("limits.feedersFit", { count: max }),
      }));
    }
  };
  const toggleParameter = (key: Parameter) => {
    const max = maxFeedersFor(selection.feeders.length, maxCharts);
    const parameters = toggleLimited(selection.parameters, key, max) as Parameter[] | null;
    if (parameters) update({ parameters });
    else {
      setRefusal(t("limits.refusedParameter", {
        max: maxCharts,
        with: t("limits.withFeeders", { count: selection.feeders.length }),
        fit: t("limits.parametersFit", { count: max }),
      }));
    }
  };
  const feeders = splitFeeders(selection.feeders, base.index, base.otherIndex);

  return (
    <StatisticsLayout
      section="statistics"
      subtitle={t("statisticsSubtitle")}
      base={base}
      carry={{
        voltage,
        ...(selection.feeders.length ? { feeders: selection.feeders.join(",") } : {}),
        ...(selection.parameters[0] ? { parameter: selection.parameters[0] } : {}),
        range: search.range,
        from: search.from,
        to: search.to,
      }}
      selected={selection.feeders}
      onToggle={(feeder) => toggleFeeder(feeder.id)}
      onClear={() => update({ feeders: [] })}
    >
      {(parameters) => {
        const problem = statisticsProblem(
          { ...selection, feeders: feeders.known },
          parameters.limits.max_charts,
          now,
        );
        return (
          <>
            <div className="flex flex-col gap-3 rounded-lg border bg-surface p-3">
              <ParameterChoice
                parameters={parameters}
                selected={selection.parameters}
                onToggle={toggleParameter}
              />
              <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
                <Labelled label={t("controls.chartType")}>
                  <SegmentedControl
                    label={t("controls.chartType")}
                    value={selection.chart}
                    onChange={(chart) => update({ chart })}
                    options={CHART_TYPES.map((c) => ({ value: c, label: t(`chartTypes.${c}`) }))}
                  />
                </Labelled>
                <Labelled label={t("controls.phase")}>
                  <SegmentedControl
                    label={t("controls.phase")}
                    value={selection.phase}
                    onChange={(phase) => update({ phase })}
                    options={PHASE_CHOICES.map((p) => ({ value: p, label: t(`phases.${p}`) }))}
                  />
                </Labelled>
                {selection.chart === "time"
                  ? (
                    <label className="flex h-8 items-center gap-2 text-sm">
                      <Switch
                        checked={selection.minMax}
                        onCheckedChange={(minMax) => update({ minMax })}
                      />
                      {t("controls.minMax")}
                    </label>
                  )
                  : null}
              </div>
              <Labelled label={t("controls.period")}>
                <PeriodPicker
                  value={selection.period}
                  period={period}
                  onChange={(choice) => update({ period: choice })}
                  onRefresh={() => setRefresh((n) => n + 1)}
                />
              </Labelled>
            </div>
            {refusal ? <Notice tone="critical">{refusal}</Notice> : null}
            <SelectionWarnings
              feeders={feeders}
              onRemove={(ids) =>
                update({ feeders: selection.feeders.filter((f) => !ids.includes(f)) })}
            />
            {problem?.kind === "empty"
              ? (
                <ChartNotice
                  icon={<BarChart3 aria-hidden />}
                  title={t(problem.key)}
                  description={t(`${problem.key}Hint`)}
                />
              )
              : problem
              ? (
                <ChartNotice
                  tone="warning"
                  title={problem.kind === "period"
                    ? t(`errors:${problem.key}`)
                    : t(problem.key, { max: parameters.limits.max_charts })}
                />
              )
              : selection.chart === "time"
              ? (
                <TimeSeriesCharts
                  feeders={feeders.known}
                  parameters={selection.parameters}
                  places={base.index}
                  phase={selection.phase}
                  minMax={selection.minMax}
                  voltage={voltage}
                  period={period}
                  onZoom={(from, to) =>
                    update({ period: { kind: "custom", ...zoomPeriod(from, to) } }, true)}
                />
              )
              : (
                <HistogramCharts
                  feeders={feeders.known}
                  parameters={selection.parameters}
                  places={base.index}
                  perPhase={(key) =>
                    parameters.parameters.find((p) => p.key === key)?.per_phase ?? true}
                  phase={selection.phase}
                  voltage={voltage}
                  period={period}
                />
              )}
          </>
        );
      }}
    </StatisticsLayout>
  );
}

function ParameterChoice({
  parameters,
  selected,
  onToggle,
}: {
  parameters: ParametersAnswer;
  selected: readonly Parameter[];
  onToggle: (key: Parameter) => void;
}) {
  const { t } = useTranslation("statistics");
  return (
    <div role="group" aria-label={t("controls.parameters")} className="flex flex-col gap-1">
      <span className="text-xs font-medium text-muted-foreground">{t("controls.parameters")}</span>
      <div className="flex flex-wrap gap-1.5">
        {parameters.parameters.map((p) => {
          const on = selected.includes(p.key);
          return (
            <Button
              key={p.key}
              size="sm"
              variant={on ? "primary" : "secondary"}
              aria-pressed={on}
              aria-label={p.unit
                ? `${t(`parameters.${p.key}`)} (${p.unit})`
                : t(`parameters.${p.key}`)}
              title={p.unit ? `${t(`parameters.${p.key}`)} (${p.unit})` : t(`parameters.${p.key}`)}
              onClick={() => onToggle(p.key)}
            >
              {t(`symbols.${p.key}`)}
              {p.unit ? <span className="opacity-70">{p.unit}</span> : null}
            </Button>
          );
        })}
      </div>
    </div>
  );
}
