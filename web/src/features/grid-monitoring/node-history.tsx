/**
 * The history of a node's feeder over the last 6 h, 24 h or 7 days: voltage and current per
 * phase (20-s values, or 10-minute means beyond a day), gaps as gaps.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useLiveLoad } from "../../lib/use-live-load.ts";
import { type ChartSeries, PHASE_COLORS, TimeChart } from "../../charts/mod.ts";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { Select } from "../../ui/select.tsx";
import type { Level, NodeDetail, NodeValues } from "./grid-types.ts";

export const PERIODS = ["6h", "24h", "7d"] as const;
export type Period = (typeof PERIODS)[number];
const PERIOD_MS: Record<Period, number> = {
  "6h": 6 * 3_600_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 86_400_000,
};

/** Voltages are shown in V at LV and in kV at MV (9.24 kV reads better than 9'237.60 V). */
export const VOLTS = {
  LV: { unit: "V", of: (v: number) => v },
  MV: { unit: "kV", of: (v: number) => v / 1000 },
} as const;

export function HistorySection({
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
