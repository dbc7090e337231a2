/**
 * /visual-statistics/compare: one parameter of 2 to 10 feeders in one chart, one curve per
 * feeder in the fixed compare colours, with each feeder's min, max and mean over the period.
 */
import { getRouteApi } from "@tanstack/react-router";
import { GitCompareArrows } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "../../ui/notice.tsx";
import { Cell, HeadCell, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { compareColor, TimeChart } from "../../charts/mod.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { type Voltage, voltageOf } from "../../lib/voltage.ts";
import { Loader } from "../../ui/loader.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { Select } from "../../ui/select.tsx";
import { ChartCard, useParameterLabel } from "./chart-card.tsx";
import { ChartNotice, Labelled, LoadProblem } from "./chart-notice.tsx";
import { PeriodPicker } from "./period-picker.tsx";
import { type Period, resolvePeriod, zoomPeriod } from "./period.ts";
import { SelectionWarnings } from "./selection-warnings.tsx";
import {
  COMPARE_LIMITS,
  compareFromSearch,
  compareProblem,
  type CompareSelection,
  compareToSearch,
  type Parameter,
  PHASE_CHOICES,
  type PhaseChoice,
  toggleLimited,
} from "./selection.ts";
import { StatisticsLayout } from "./statistics-layout.tsx";
import { feederLabel, type FeederPlace, splitFeeders } from "./structure.ts";
import { useSearchPatch, useStatisticsBase } from "./use-statistics-base.ts";
import { type CompareAnswer, vsmApi } from "./vsm-api.ts";

const route = getRouteApi("/visual-statistics/compare");

export function ComparePage() {
  const { t } = useTranslation(["statistics", "errors"]);
  const search = route.useSearch();
  const voltage = voltageOf(search);
  const searchKey = JSON.stringify(compareToSearch(compareFromSearch(search)));
  const selection = useMemo(() => compareFromSearch(search), [searchKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const base = useStatisticsBase(voltage);
  const patch = useSearchPatch("/visual-statistics/compare");
  const [refresh, setRefresh] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const periodKey = JSON.stringify(selection.period);
  const now = useMemo(() => Date.now(), [periodKey, refresh]); // eslint-disable-line react-hooks/exhaustive-deps
  const period = resolvePeriod(selection.period, now);
  const feeders = splitFeeders(selection.feeders, base.index, base.otherIndex);

  const update = (next: Partial<CompareSelection>, push = false) => {
    setRefusal(null);
    patch(compareToSearch({ ...selection, ...next }), push);
  };
  const toggleFeeder = (id: string) => {
    const next = toggleLimited(selection.feeders, id, COMPARE_LIMITS.max);
    if (next) update({ feeders: next });
    else setRefusal(t("limits.compareMax", { max: COMPARE_LIMITS.max }));
  };
  const colorOf = (id: string) => {
    const k = feeders.known.indexOf(id);
    return k < 0 ? undefined : compareColor(k);
  };
  const problem = compareProblem({ ...selection, feeders: feeders.known }, now);

  return (
    <StatisticsLayout
      section="compare"
      subtitle={t("compareSubtitle")}
      base={base}
      carry={{
        voltage,
        ...(selection.feeders.length ? { feeders: selection.feeders.join(",") } : {}),
        parameters: selection.parameter,
        range: search.range,
        from: search.from,
        to: search.to,
      }}
      selected={selection.feeders}
      onToggle={(feeder) => toggleFeeder(feeder.id)}
      onClear={() => update({ feeders: [] })}
      colorOf={colorOf}
    >
      {(parameters) => (
        <>
          <div className="flex flex-col gap-3 rounded-lg border bg-surface p-3">
            <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
              <div className="flex w-60 flex-col gap-1">
                <span id="compare-parameter" className="text-xs font-medium text-muted-foreground">
                  {t("controls.parameter")}
                </span>
                <Select
                  aria-labelledby="compare-parameter"
                  value={selection.parameter}
                  onValueChange={(value) => update({ parameter: value as Parameter })}
                  options={parameters.parameters.map((p) => ({
                    value: p.key,
                    label: p.unit
                      ? `${t(`parameters.${p.key}`)} (${p.unit})`
                      : t(`parameters.${p.key}`),
                  }))}
                />
              </div>
              <Labelled label={t("controls.phase")}>
                <SegmentedControl
                  label={t("controls.phase")}
                  value={selection.phase}
                  onChange={(phase) => update({ phase })}
                  options={PHASE_CHOICES.map((p) => ({ value: p, label: t(`phases.${p}`) }))}
                />
              </Labelled>
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
          {problem?.key === "limits.compareMin"
            ? (
              <ChartNotice
                icon={<GitCompareArrows aria-hidden />}
                title={t("limits.compareMin")}
                description={t("limits.compareMinHint")}
              />
            )
            : problem
            ? (
              <ChartNotice
                tone="warning"
                title={problem.kind === "period"
                  ? t(`errors:${problem.key}`)
                  : t(problem.key, { max: COMPARE_LIMITS.max })}
              />
            )
            : (
              <Comparison
                feeders={feeders.known}
                places={base.index}
                parameter={selection.parameter}
                parameterUnit={parameters.parameters.find((p) => p.key === selection.parameter)
                  ?.unit ?? ""}
                phase={selection.phase}
                voltage={voltage}
                period={period}
                onZoom={(from, to) =>
                  update({ period: { kind: "custom", ...zoomPeriod(from, to) } }, true)}
              />
            )}
        </>
      )}
    </StatisticsLayout>
  );
}

function Comparison({
  feeders,
  places,
  parameter,
  parameterUnit,
  phase,
  voltage,
  period,
  onZoom,
}: {
  feeders: string[];
  places: ReadonlyMap<string, FeederPlace>;
  parameter: Parameter;
  parameterUnit: string;
  phase: PhaseChoice;
  voltage: Voltage;
  period: Period;
  onZoom: (from: number, to: number) => void;
}) {
  const { t } = useTranslation("statistics");
  const format = useFormatters();
  const parameterLabel = useParameterLabel();
  const load = useAsync(
    (signal) => vsmApi.compare({ feeders, parameter, phase, voltage, period }, signal),
    [feeders.join(","), parameter, phase, voltage, period.from, period.to],
  );
  const label = `${parameterLabel(parameter, parameterUnit)} · ${t(`phases.${phase}`)}`;
  if (load.status === "loading") return <Loader className="min-h-64" />;
  if (load.status === "error") return <LoadProblem error={load.error} onRetry={load.reload} />;
  const answer = load.data;
  const names = answer.feeders.map((f) => {
    const place = places.get(f.feeder_id);
    return place ? feederLabel(place) : `${f.node_name} › ${f.feeder_name}`;
  });
  const title = t("compareTitle", {
    parameter: label,
    feeders: names.length <= 3 ? names.join(", ") : t("feederCount", { count: names.length }),
    period: t("period.shown", {
      from: format.dateTime(period.from),
      to: format.dateTime(period.to),
    }),
  });
  return (
    <>
      <ChartCard
        title={label}
        subtitle={t("feederCount", { count: names.length })}
        resolution={answer.resolution}
      >
        <TimeChart
          title={title}
          times={answer.times}
          height={300}
          series={answer.feeders.map((f, k) => ({
            label: names[k] ?? f.feeder_name,
            unit: answer.unit,
            color: compareColor(k),
            values: f.values,
          }))}
          onZoom={onZoom}
        />
      </ChartCard>
      <SummaryTable answer={answer} names={names} places={places} />
    </>
  );
}

function SummaryTable(
  { answer, names, places }: {
    answer: CompareAnswer;
    names: string[];
    places: ReadonlyMap<string, FeederPlace>;
  },
) {
  const { t } = useTranslation("statistics");
  const format = useFormatters();
  const value = (v: number | null) =>
    v === null ? "–" : `${format.number(v)}${answer.unit ? `\u00a0${answer.unit}` : ""}`;
  return (
    <div className="overflow-auto rounded-lg border bg-surface">
      <Table>
        <caption className="sr-only">{t("summary.caption")}</caption>
        <TableHead sticky className="bg-surface-muted">
          <tr>
            <HeadCell className="px-3 py-2 first:pl-3">{t("summary.feeder")}</HeadCell>
            <HeadCell className="px-3 py-2">{t("summary.node")}</HeadCell>
            <HeadCell numeric className="px-3 py-2">{t("summary.min")}</HeadCell>
            <HeadCell numeric className="px-3 py-2">{t("summary.max")}</HeadCell>
            <HeadCell numeric className="px-3 py-2 last:pr-3">{t("summary.mean")}</HeadCell>
          </tr>
        </TableHead>
        <TableBody>
          {answer.feeders.map((f, k) => {
            const place = places.get(f.feeder_id);
            return (
              <tr key={f.feeder_id} className="border-t">
                <td className="px-3 py-2">
                  <span className="flex items-center gap-2">
                    <span
                      aria-hidden
                      className="h-1 w-4 shrink-0 rounded-full"
                      style={{ background: compareColor(k) }}
                    />
                    <span className="font-medium" title={names[k]}>{f.feeder_name}</span>
                  </span>
                </td>
                <td className="px-3 py-2 text-muted-foreground">
                  {place && place.workName !== place.nodeName
                    ? `${place.workName} › ${f.node_name}`
                    : f.node_name}
                </td>
                <Cell numeric className="px-3 py-2">{value(f.summary.min)}</Cell>
                <Cell numeric className="px-3 py-2">{value(f.summary.max)}</Cell>
                <Cell numeric className="px-3 py-2 last:pr-3">{value(f.summary.mean)}</Cell>
              </tr>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
