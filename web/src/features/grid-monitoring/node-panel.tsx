/**
 * The detail of one node: its state (and the upstream outage that explains it), the latest
 * voltage and current per feeder and phase, its warnings with their start time, the history of
 * the last 6 h, 24 h or 7 days, and its custom monitoring.
 */
import { ChevronRight, Info, X } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { type ChartSeries, PHASE_COLORS, TimeChart } from "../../charts/mod.ts";
import { Button } from "../../ui/button.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { Select } from "../../ui/select.tsx";
import { CustomMonitoringSection } from "./custom-monitoring.tsx";
import type { Level, NodeDetail, NodeValues } from "./grid-types.ts";
import { PhaseLabel, StateBadge } from "./state-look.tsx";
import { useLiveLoad } from "../../lib/use-live-load.ts";

export const PERIODS = ["6h", "24h", "7d"] as const;
export type Period = (typeof PERIODS)[number];
const PERIOD_MS: Record<Period, number> = {
  "6h": 6 * 3_600_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 86_400_000,
};

/** Voltages are shown in V at LV and in kV at MV (9.24 kV reads better than 9'237.60 V). */
const VOLTS = {
  LV: { unit: "V", of: (v: number) => v },
  MV: { unit: "kV", of: (v: number) => v / 1000 },
} as const;

export function NodePanel({
  nodeId,
  level,
  evaluatedAt,
  live,
  admin,
  period,
  onPeriod,
  onClose,
  onSelect,
}: {
  nodeId: string;
  level: Level;
  /** The grid status evaluation on screen: a newer one refreshes the detail. */
  evaluatedAt: string;
  /** Auto run mode: the charts follow the refreshes. */
  live: boolean;
  admin: boolean;
  period: Period;
  onPeriod: (p: Period) => void;
  onClose: () => void;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation(["grid-monitoring", "infrastructure"]);
  const format = useFormatters();
  const errorText = useErrorText();
  const volts = VOLTS[level];
  const path = `/evm/grid-monitoring/nodes/${encodeURIComponent(nodeId)}`;
  const detail = useLiveLoad<NodeDetail>(
    (signal) => api.get(path, { query: { level }, signal, handleErrors: true }),
    `${nodeId}|${level}`,
    null,
  );
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    detail.refresh();
    // Only a new evaluation refreshes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [evaluatedAt]);
  const d = detail.data;

  const panelRef = useRef<HTMLElement>(null);
  return (
    <aside
      ref={panelRef}
      aria-label={t("detail.label", { name: d?.name ?? "" })}
      data-testid="node-panel"
      className="flex min-h-0 min-w-0 flex-1 flex-col overflow-hidden rounded-lg border bg-surface 2xl:max-w-[46rem]"
      onKeyDown={(e) => {
        // Not for Escape in a select's list (a portal: outside the panel's DOM, inside its tree).
        if (e.key === "Escape" && panelRef.current?.contains(e.target as Node)) onClose();
      }}
    >
      <header className="flex items-start gap-3 border-b px-4 py-3">
        <div className="min-w-0 flex-1">
          {d
            ? (
              <>
                <p className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
                  {[d.station_group.name, d.mv_feeder_group.name, d.lv_group.name].map((n, k) => (
                    <span key={k} className="inline-flex items-center gap-1">
                      {k ? <ChevronRight aria-hidden className="size-3" /> : null}
                      {n}
                    </span>
                  ))}
                </p>
                <h2 className="truncate text-base font-semibold">{d.name}</h2>
                <p className="text-xs text-muted-foreground">
                  {d.electrical_work.name} ·{" "}
                  {t(`infrastructure:electricalWorkTypes.${d.electrical_work.type}`, {
                    defaultValue: d.electrical_work.type,
                  })}
                </p>
              </>
            )
            : <h2 className="text-base font-semibold">{t("detail.title")}</h2>}
        </div>
        <Button variant="ghost" size="icon" aria-label={t("detail.close")} onClick={onClose}>
          <X aria-hidden />
        </Button>
      </header>
      <div className="min-h-0 flex-1 overflow-auto">
        {!d
          ? detail.error
            ? (
              <LoadError
                message={errorText(detail.error).text}
                onRetry={detail.refresh}
                className="py-10"
              />
            )
            : <Loader className="py-10" />
          : (
            <div className="flex flex-col gap-5 p-4">
              <section className="flex flex-col gap-2" aria-label={t("detail.state")}>
                <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                  <StateBadge state={d.state} className="text-sm" />
                  <span className="text-xs text-muted-foreground">
                    {d.last_value_at
                      ? t("detail.lastValue", { time: format.dateTime(d.last_value_at) })
                      : t("detail.neverValue")}
                  </span>
                </div>
                {d.suppressed_by
                  ? (
                    <p className="flex items-start gap-2 rounded-md bg-surface-muted px-3 py-2 text-sm">
                      <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                      <span>
                        {t("detail.suppressed")}{" "}
                        <Button
                          variant="link"
                          className="h-auto p-0 text-sm"
                          onClick={() => onSelect(d.suppressed_by!.id)}
                        >
                          {d.suppressed_by.name ?? d.suppressed_by.id}
                        </Button>
                      </span>
                    </p>
                  )
                  : null}
                <p className="text-xs text-muted-foreground">
                  {t("detail.limits", {
                    low: format.number(volts.of(d.limits.undervoltage_v)),
                    high: format.number(volts.of(d.limits.overvoltage_v)),
                    nominal: format.number(volts.of(d.limits.nominal_voltage_v)),
                    unit: t(`detail.voltageUnit.${volts.unit}`),
                    pct: format.number(d.limits.overcurrent_pct, 0),
                  })}
                </p>
              </section>

              <section className="flex flex-col gap-2">
                <h3 className="flex items-center gap-2 text-sm font-semibold">
                  {t("detail.warnings")}
                  {d.warnings.length
                    ? (
                      <span className="tabular rounded-full bg-state-warning-soft px-2 text-xs text-state-warning">
                        {d.warnings.length}
                      </span>
                    )
                    : null}
                </h3>
                {d.warnings.length
                  ? (
                    <table className="w-full text-sm" data-testid="node-warnings">
                      <thead className="text-xs text-muted-foreground">
                        <tr className="border-b">
                          <th scope="col" className="py-1.5 pr-2 text-left">
                            {t("detail.feeder")}
                          </th>
                          <th scope="col" className="py-1.5 pr-2 text-left">{t("detail.phase")}</th>
                          <th scope="col" className="py-1.5 pr-2 text-left">{t("list.state")}</th>
                          <th scope="col" className="py-1.5 text-right">{t("detail.since")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {d.warnings.map((w) => (
                          <tr key={`${w.feeder_id}-${w.phase}`} className="border-b last:border-0">
                            <td className="py-1.5 pr-2">{w.feeder_name}</td>
                            <td className="py-1.5 pr-2">
                              <PhaseLabel phase={w.phase} />
                            </td>
                            <td className="py-1.5 pr-2">
                              <StateBadge state={w.state} />
                            </td>
                            <td className="tabular py-1.5 text-right">
                              {w.since
                                ? `${w.since_earlier ? t("detail.before") : ""}${
                                  format.dateTime(w.since)
                                }`
                                : t("detail.never")}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )
                  : <p className="text-sm text-muted-foreground">{t("detail.noWarnings")}</p>}
              </section>

              <section className="flex flex-col gap-3">
                <h3 className="text-sm font-semibold">{t("detail.latest")}</h3>
                <div className="grid gap-3 lg:grid-cols-2">
                  {d.feeders.map((f) => (
                    <div key={f.id} className="rounded-md border" data-testid="feeder-table">
                      <div className="flex items-center justify-between gap-2 border-b bg-surface-muted px-3 py-1.5">
                        <span className="truncate text-sm font-medium">{f.name}</span>
                        <StateBadge state={f.state} />
                      </div>
                      <table className="w-full text-sm">
                        <caption className="sr-only">{f.name}</caption>
                        <thead className="text-xs text-muted-foreground">
                          <tr>
                            <th scope="col" className="px-3 py-1 text-left">{t("detail.phase")}</th>
                            <th scope="col" className="px-3 py-1 text-right">
                              {t("detail.u", { unit: t(`detail.voltageUnit.${volts.unit}`) })}
                            </th>
                            <th scope="col" className="px-3 py-1 text-right">{t("detail.i")}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {f.phases.map((p) => (
                            <tr key={p.phase} className="border-t">
                              <th scope="row" className="px-3 py-1 text-left font-normal">
                                <PhaseLabel phase={p.phase} />
                              </th>
                              <td className="tabular px-3 py-1 text-right">
                                {p.u === null ? "–" : format.number(volts.of(p.u))}
                              </td>
                              <td
                                className={`tabular px-3 py-1 text-right ${
                                  p.state === "OVERCURRENT"
                                    ? "font-semibold text-state-warning"
                                    : ""
                                }`}
                              >
                                {p.i === null ? "–" : format.number(p.i)}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                      <p className="border-t px-3 py-1 text-[0.7rem] text-muted-foreground">
                        {t("detail.nominalCurrent", {
                          nominal: format.number(f.nominal_current_a),
                          limit: format.number(f.overcurrent_a),
                        })}
                      </p>
                    </div>
                  ))}
                </div>
              </section>

              <HistorySection
                detail={d}
                level={level}
                period={period}
                onPeriod={onPeriod}
                refreshKey={live && period !== "7d" ? evaluatedAt : ""}
              />

              <CustomMonitoringSection node={d} admin={admin} live={live} />
            </div>
          )}
      </div>
    </aside>
  );
}

function HistorySection({
  detail,
  level,
  period,
  onPeriod,
  refreshKey,
}: {
  detail: NodeDetail;
  level: Level;
  period: Period;
  onPeriod: (p: Period) => void;
  /** A new value reloads the history in place. */
  refreshKey: string;
}) {
  const { t } = useTranslation("grid-monitoring");
  const errorText = useErrorText();
  const volts = VOLTS[level];
  const values = useLiveLoad<NodeValues>(
    (signal) => {
      const to = Date.now();
      return api.get(`/evm/grid-monitoring/nodes/${encodeURIComponent(detail.id)}/values`, {
        query: {
          level,
          from: new Date(to - PERIOD_MS[period]).toISOString(),
          to: new Date(to).toISOString(),
        },
        signal,
        handleErrors: true,
      });
    },
    `${detail.id}|${level}|${period}`,
    null,
  );
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (refreshKey) values.refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshKey]);
  // The feeder shown: the first one with a warning, else the first.
  const [feederId, setFeederId] = useState<string | null>(null);
  const warned = detail.feeders.find((f) => f.state !== "OK")?.id;
  const shown = feederId ?? warned ?? detail.feeders[0]?.id ?? null;
  const v = values.data;
  const feeder = v?.feeders.find((f) => f.id === shown);
  const charts = useMemo(() => {
    if (!feeder) return null;
    const u: ChartSeries[] = feeder.phases.filter((p) => p.phase !== "N").map((p) => ({
      label: `${p.phase} U`,
      unit: volts.unit,
      color: PHASE_COLORS[p.phase],
      values: volts.unit === "kV" ? p.u.map((x) => x === null ? null : volts.of(x)) : p.u,
    }));
    const i: ChartSeries[] = feeder.phases.map((p) => ({
      label: `${p.phase} I`,
      unit: "A",
      color: PHASE_COLORS[p.phase],
      values: p.i,
    }));
    return { u, i };
  }, [feeder, volts]);
  const empty = feeder ? feeder.phases.every((p) => p.i.every((x) => x === null)) : false;

  return (
    <section className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{t("history.title")}</h3>
        <div className="flex items-center gap-2">
          {detail.feeders.length > 1
            ? (
              <Select
                aria-label={t("detail.feeder")}
                className="w-56 [&>span]:truncate"
                value={shown ?? undefined}
                onValueChange={setFeederId}
                options={detail.feeders.map((f) => ({ value: f.id, label: f.name }))}
              />
            )
            : null}
          <SegmentedControl<Period>
            label={t("history.period")}
            value={period}
            onChange={onPeriod}
            options={PERIODS.map((p) => ({ value: p, label: t(`history.periods.${p}`) }))}
          />
        </div>
      </div>
      {!v
        ? values.error
          ? <LoadError message={errorText(values.error).text} onRetry={values.refresh} />
          : <Loader />
        : !charts || empty
        ? <p className="py-6 text-center text-sm text-muted-foreground">{t("history.empty")}</p>
        : (
          <>
            <p className="text-xs text-muted-foreground">
              {t(v.resolution === "20s" ? "history.raw" : "history.means")}
            </p>
            <TimeChart
              title={`${detail.name} ${feeder!.name} U`}
              times={v.times}
              series={charts.u}
              height={200}
            />
            <TimeChart
              title={`${detail.name} ${feeder!.name} I`}
              times={v.times}
              series={charts.i}
              height={200}
            />
          </>
        )}
    </section>
  );
}
