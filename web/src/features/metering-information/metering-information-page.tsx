/**
 * Metering Information (spec 2.1): the metering status of every electrical work from
 * GET /gsm/electrical-works/status, as a list or a map, refreshed every 30 s in place.
 */
import { CircleCheck, CircleHelp, CircleOff, CircleX, Network } from "lucide-react";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { useMvAvailability } from "../../lib/shell-atoms.ts";
import { voltageOf } from "../../lib/voltage.ts";
import { Button } from "../../ui/button.tsx";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { GridMap, type MapFocus, type MapState } from "../../map/grid-map.tsx";
import { useMapOverlays } from "../../map/map-layers.ts";
import { onlineBasemap, useNetwork } from "../../map/use-network.ts";
import { cn } from "../../ui/cn.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { StructureMissing } from "../../ui/structure-missing.tsx";
import { ListMapSwitch } from "../../map/list-map-switch.tsx";
import { useFormatters } from "../../lib/use-formatters.ts";
import type { ElectricalWorksStatus, MeteringState } from "../../../../modules/grid/contract.ts";

/** The states in the order of the filter and the legend (best first). */
const METERING_STATES: readonly MeteringState[] = [
  "CONNECTED",
  "DISCONNECTED",
  "NO_CELL",
  "UNMEASURED",
];

/** Colour token and icon per metering state (never colour alone). */
const LOOK: Record<MeteringState, { map: MapState; className: string; icon: ReactNode }> = {
  CONNECTED: {
    map: "ok",
    className: "bg-state-ok-soft text-state-ok",
    icon: <CircleCheck aria-hidden />,
  },
  DISCONNECTED: {
    map: "critical",
    className: "bg-state-critical-soft text-state-critical",
    icon: <CircleX aria-hidden />,
  },
  NO_CELL: {
    map: "offline",
    className: "bg-state-offline-soft text-state-offline",
    icon: <CircleOff aria-hidden />,
  },
  UNMEASURED: {
    map: "unknown",
    className: "bg-state-unknown-soft text-state-unknown",
    icon: <CircleHelp aria-hidden />,
  },
};

function StateBadge({ state }: { state: MeteringState }) {
  const { t } = useTranslation("metering");
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium [&_svg]:size-3.5",
        LOOK[state].className,
      )}
    >
      {LOOK[state].icon}
      {t(`states.${state}`)}
    </span>
  );
}

export function MeteringInformationPage() {
  const { t } = useTranslation(["metering", "modules", "infrastructure", "grid-monitoring"]);
  const { customer } = useSession();
  const [filter, setFilter] = useState<MeteringState | "ALL">("ALL");
  // The list/map choice lives in the URL (?view=map), so a reload or a shared link keeps it.
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const view: "list" | "map" = search.view === "map" ? "map" : "list";
  const setView = (next: "list" | "map") =>
    void navigate({
      to: "/metering-information",
      search: (prev: Record<string, unknown>) => ({ ...prev, view: next }),
      replace: true,
    } as never);
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const { overlays } = useMapOverlays(0);
  // Refreshed in place: the last answer stays on screen while the next one loads.
  const load = useLiveLoad(
    (signal) => api.get<ElectricalWorksStatus>("/gsm/electrical-works/status", { signal }),
    "status",
    REFRESH_MS,
  );
  const data = load.data;

  const format = useFormatters();
  // The voltage switch lists the works with values at that level (spec 2.3, 2.4).
  const level = voltageOf(search) === "mv" ? "MV" : "LV";
  const atLevel = (data?.electrical_works ?? []).filter((w) => w.levels.includes(level));
  const hasMv = (data?.electrical_works ?? []).some((w) => w.levels.includes("MV"));
  useMvAvailability(data ? hasMv : true);
  const counts = Object.fromEntries(
    METERING_STATES.map((s) => [s, atLevel.filter((w) => w.state === s).length]),
  ) as Record<MeteringState, number>;
  const works = atLevel.filter((w) => filter === "ALL" || w.state === filter);
  const points = works.map((w) => ({
    id: w.node_id,
    kind: "electricalWork" as const,
    name: w.name,
    latitude: w.latitude,
    longitude: w.longitude,
    state: LOOK[w.state].map,
    detail: t(`states.${w.state}`),
    workType: w.type,
    workName: w.name,
  }));
  // The network under the works, coloured by every work's metering state at this level.
  const workStates = useMemo(
    () =>
      data
        ? new Map(
          data.electrical_works.filter((w) => w.levels.includes(level))
            .map((w) => [w.node_id, LOOK[w.state].map]),
        )
        : null,
    [data, level],
  );
  const network = useNetwork(workStates, { lv: level === "LV" });

  return (
    <Page
      title={`${t("modules:metering-information.title")} · ${t(`grid-monitoring:level.${level}`)}`}
      subtitle={t("modules:metering-information.purpose")}
      actions={
        <ListMapSwitch
          value={view}
          onChange={setView}
          labels={{ group: t("view.label"), list: t("view.list"), map: t("view.map") }}
        />
      }
    >
      <AsyncState state={liveState(load)} onRetry={load.refresh}>
        {(status) =>
          status.electrical_works.length === 0
            ? <StructureMissing />
            : level === "MV" && !hasMv
            ? (
              <EmptyState
                icon={<Network />}
                title={t("grid-monitoring:noMv.title")}
                description={t("noMv")}
              >
                <Button
                  variant="secondary"
                  onClick={() =>
                    void navigate({
                      to: "/metering-information",
                      search: (prev: Record<string, unknown>) => ({ ...prev, voltage: "lv" }),
                    } as never)}
                >
                  {t("grid-monitoring:noMv.showLv")}
                </Button>
              </EmptyState>
            )
            : (
              <div className="flex min-h-0 flex-1 flex-col gap-3">
                <div
                  role="group"
                  aria-label={t("filter.label")}
                  className="flex flex-wrap items-center gap-2"
                >
                  {(["ALL", ...METERING_STATES] as const).map((s) => (
                    <button
                      key={s}
                      type="button"
                      aria-pressed={filter === s}
                      onClick={() => setFilter(s)}
                      className={cn(
                        "inline-flex h-8 items-center gap-2 rounded-md border px-3 text-sm transition-colors",
                        filter === s
                          ? "border-primary bg-accent text-accent-foreground"
                          : "bg-surface hover:bg-surface-muted",
                      )}
                    >
                      {s === "ALL" ? t("filter.all") : <StateBadge state={s} />}
                      <span className="tabular font-semibold">
                        {s === "ALL" ? atLevel.length : counts[s]}
                      </span>
                    </button>
                  ))}
                  <span className="ml-auto text-xs text-muted-foreground">
                    {t("updatedAt", { time: format.dateTime(status.generated_at) })}
                  </span>
                </div>
                {view === "map"
                  ? (
                    <GridMap
                      className="min-h-[32rem] flex-1"
                      label={t("mapLabel")}
                      unavailableText={t("infrastructure:view.mapUnavailable")}
                      points={points}
                      network={network}
                      basemap={onlineBasemap(customer)}
                      overlays={overlays}
                      focus={focus}
                      center={customer.map_center}
                      legend={METERING_STATES.map((s) => ({
                        state: LOOK[s].map,
                        label: t(`states.${s}`),
                      }))}
                    />
                  )
                  : (
                    <div className="min-h-0 overflow-auto rounded-lg border bg-surface">
                      <table className="w-full text-sm">
                        <caption className="sr-only">{t("tableCaption")}</caption>
                        <thead className="sticky top-0 bg-surface-muted text-xs text-muted-foreground">
                          <tr>
                            <th scope="col" className="px-3 py-2 text-left">
                              {t("columns.electricalWork")}
                            </th>
                            <th scope="col" className="px-3 py-2 text-left">
                              {t("columns.location")}
                            </th>
                            <th scope="col" className="px-3 py-2 text-left">
                              {t("columns.state")}
                            </th>
                            <th scope="col" className="px-3 py-2 text-left">{t("columns.cell")}</th>
                            <th scope="col" className="px-3 py-2 text-left">
                              {t("columns.lastData")}
                            </th>
                            <th scope="col" className="px-3 py-2 text-left">{t("columns.gps")}</th>
                            <th scope="col" className="px-3 py-2 text-left">{t("columns.gsm")}</th>
                            <th scope="col" className="px-3 py-2 text-right">
                              {t("columns.feeders")}
                            </th>
                          </tr>
                        </thead>
                        <tbody>
                          {works.map((w) => (
                            <tr
                              key={w.node_id}
                              className="cursor-pointer border-t hover:bg-surface-muted"
                              onClick={() => {
                                setView("map");
                                setFocus((f) => ({ id: w.node_id, seq: (f?.seq ?? 0) + 1 }));
                              }}
                            >
                              <td className="px-3 py-2">
                                <div className="font-medium">{w.name}</div>
                                <div className="text-xs text-muted-foreground">
                                  {t(`infrastructure:electricalWorkTypes.${w.type}`)}
                                </div>
                              </td>
                              <td className="px-3 py-2 text-xs text-muted-foreground">
                                {[w.station_group.name, w.mv_feeder_group.name, w.lv_group.name]
                                  .join(" › ")}
                              </td>
                              <td className="px-3 py-2">
                                <StateBadge state={w.state} />
                              </td>
                              <td className="px-3 py-2 tabular">
                                {w.cell?.serial_number ?? t("none")}
                              </td>
                              <td className="px-3 py-2 tabular">
                                {w.last_data_at ? format.dateTime(w.last_data_at) : t("never")}
                              </td>
                              <td className="px-3 py-2">
                                {w.cell?.gps_fix
                                  ? t(`gps.${w.cell.gps_fix}`, { defaultValue: w.cell.gps_fix })
                                  : t("none")}
                              </td>
                              <td className="px-3 py-2">
                                {w.cell?.gsm_signal
                                  ? t(`gsm.${w.cell.gsm_signal}`, {
                                    defaultValue: w.cell.gsm_signal,
                                  })
                                  : t("none")}
                              </td>
                              <td className="px-3 py-2 text-right tabular">{w.feeder_count}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  )}
              </div>
            )}
      </AsyncState>
    </Page>
  );
}
