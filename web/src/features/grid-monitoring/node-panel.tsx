/**
 * The detail of one node: its state (and the upstream outage that explains it), the latest
 * voltage and current per feeder and phase, its warnings with their start time, the history of
 * the last 6 h, 24 h or 7 days, and its custom monitoring.
 */
import { ChevronRight, Info, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { CustomMonitoringSection } from "./custom-monitoring.tsx";
import type { Level, NodeDetail } from "./grid-types.ts";
import { HistorySection, type Period, VOLTS } from "./node-history.tsx";
import { FeederTable, WarningsTable } from "./node-tables.tsx";
import { StateBadge } from "./state-look.tsx";
import { useLiveLoad } from "../../lib/use-live-load.ts";

export { type Period, PERIODS } from "./node-history.tsx";

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
                  {d.warnings.length ? <Badge tone="warning">{d.warnings.length}</Badge> : null}
                </h3>
                {d.warnings.length
                  ? <WarningsTable warnings={d.warnings} />
                  : <p className="text-sm text-muted-foreground">{t("detail.noWarnings")}</p>}
              </section>

              <section className="flex flex-col gap-3">
                <h3 className="text-sm font-semibold">{t("detail.latest")}</h3>
                <div className="grid gap-3 lg:grid-cols-2">
                  {d.feeders.map((f) => <FeederTable key={f.id} feeder={f} level={level} />)}
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
