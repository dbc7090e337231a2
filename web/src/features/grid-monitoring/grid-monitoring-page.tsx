/**
 * Grid Monitoring (spec 2.1): the state of every node of the LV or MV grid from
 * GET /evm/grid-monitoring/grid-status, as counts, a grouped list and a map side by side, and
 * the detail of one node. Refreshed every 30 s in Auto run mode, on request in Manual mode.
 * Every choice lives in the URL (?voltage, state, q, node, period): reload and share keep it.
 */
import { getRouteApi } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { Network, RefreshCw } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { isAdminOf } from "../../lib/access.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { runModeAtom, useMvAvailability } from "../../lib/shell-atoms.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { voltageOf } from "../../lib/voltage.ts";
import { LazyGridMap } from "../../map/lazy-grid-map.tsx";
import type { MapFocus, MapPoint } from "../../map/map-types.ts";
import { useMapOverlays } from "../../map/map-layers.ts";
import { onlineBasemap, useNetwork } from "../../map/use-network.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Page } from "../../ui/page.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { StructureMissing } from "../../ui/structure-missing.tsx";
import { GridList } from "./grid-list.tsx";
import {
  findNode,
  type ListFilter,
  listRows,
  mvAvailable,
  passesFilter,
  statesOf,
} from "./logic.ts";
import {
  GRID_STATES,
  type GridState,
  type GridStatus,
  type Level,
  type NodeStatus,
} from "./grid-types.ts";
import { NodePanel, type Period, PERIODS } from "./node-panel.tsx";
import { MIN_LIST, Splitter } from "./splitter.tsx";
import { STATE_LOOK } from "./state-look.tsx";
import { StatusFilter } from "./status-filter.tsx";
import { REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";

const isFilter = (v: unknown): v is ListFilter =>
  v === "ALARMS" || GRID_STATES.includes(v as GridState);
const WIDTH_KEY = "gw.gridMonitoring.listWidth";
const route = getRouteApi("/grid-monitoring");
type GridMonitoringSearch = ReturnType<typeof route.useSearch>;

function storedWidth(): number {
  try {
    const n = Number(window.localStorage.getItem(WIDTH_KEY));
    return Number.isFinite(n) && n >= MIN_LIST ? n : 520;
  } catch {
    return 520;
  }
}

export function GridMonitoringPage() {
  const { t } = useTranslation(["grid-monitoring", "modules", "infrastructure"]);
  const { claims, customer } = useSession();
  const format = useFormatters();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const level: Level = voltageOf(search) === "mv" ? "MV" : "LV";
  const filter = isFilter(search.state) ? search.state : null;
  const query = search.q ?? "";
  const selected = search.node || null;
  const period: Period = PERIODS.find((p) => p === search.period) ?? "24h";
  const runMode = useAtomValue(runModeAtom);
  const admin = isAdminOf(claims.appsRoles, "app:grid-monitoring") ||
    claims.role === "super-admin";

  const setSearch = (patch: Partial<GridMonitoringSearch>, replace = true) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace });

  const status = useLiveLoad<GridStatus>(
    (signal, hasData) =>
      api.get<GridStatus>("/evm/grid-monitoring/grid-status", {
        // The list and map need states only; a node's values come with its detail.
        query: { level, view: "summary" },
        signal,
        // A failed refresh keeps the screen and says so; a failed first load follows spec 7.
        handleErrors: hasData,
      }),
    level,
    runMode === "auto" ? REFRESH_MS : null,
  );
  const data = status.data;
  // The toggle follows the selected node (spec 2.4), not only the grid.
  useMvAvailability(mvAvailable(data ?? null, selected));
  // A node opened at MV (a shared link, a reload) that has no MV values: no dead end.
  const selectedMissing = data !== null && selected !== null && !findNode(data, selected);

  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (n: NodeStatus) =>
      passesFilter(n, filter) &&
      (!q || n.name.toLowerCase().includes(q) || n.electrical_work.name.toLowerCase().includes(q));
  }, [filter, query]);
  const rows = useMemo(() => (data ? listRows(data, matches) : []), [data, matches]);
  const points = useMemo<MapPoint[]>(
    () =>
      rows.flatMap((r) =>
        r.kind === "node"
          ? [{
            id: r.node.id,
            kind: "node" as const,
            name: r.node.name,
            latitude: r.node.latitude,
            longitude: r.node.longitude,
            state: STATE_LOOK[r.node.state].map,
            detail: `${r.node.electrical_work.name} · ${t(`states.${r.node.state}`)}`,
            workType: r.node.electrical_work.type,
            workName: r.node.electrical_work.name,
          }]
          : []
      ),
    [rows, t],
  );
  // The network under the points, coloured by every node's state (the filter aside).
  const nodeStates = useMemo(
    () =>
      data ? new Map([...statesOf(data)].map(([id, state]) => [id, STATE_LOOK[state].map])) : null,
    [data],
  );
  const network = useNetwork(nodeStates, { lv: level === "LV" });
  const nodeCount = data ? GRID_STATES.reduce((sum, s) => sum + data.counts[s], 0) : 0;

  // The map goes to a node chosen in the list or opened from the URL (not to one clicked on it).
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const clickedOnMap = useRef(false);
  const pointsReady = points.length > 0;
  useEffect(() => {
    if (!selected || !pointsReady) return;
    if (clickedOnMap.current) {
      clickedOnMap.current = false;
      return;
    }
    setFocus((f) => ({ id: selected, seq: (f?.seq ?? 0) + 1 }));
  }, [selected, pointsReady]);
  const select = (id: string | null) => setSearch({ node: id ?? undefined }, false);

  const { overlays } = useMapOverlays(0);
  const [listWidth, setListWidth] = useState(storedWidth);
  useEffect(() => {
    try {
      window.localStorage.setItem(WIDTH_KEY, String(Math.round(listWidth)));
    } catch {
      // The width is a convenience only.
    }
  }, [listWidth]);

  const actions = (
    <div className="flex items-center gap-3 text-xs text-muted-foreground">
      {data
        ? (
          <span data-testid="evaluated-at">
            {t("evaluatedAt", { time: format.dateTime(data.evaluated_at) })}
          </span>
        )
        : null}
      {runMode === "auto" ? <span className="hidden lg:inline">{t("autoRefresh")}</span> : (
        <Button
          size="sm"
          variant="secondary"
          onClick={status.refresh}
          disabled={status.loading}
        >
          {status.loading ? <Spinner className="size-4" /> : <RefreshCw aria-hidden />}
          {t("refresh")}
        </Button>
      )}
    </div>
  );

  let body;
  if (!data) {
    body = status.error ? <LoadError onRetry={status.refresh} /> : <Loader label={t("loading")} />;
  } else if (level === "MV" && !data.has_mv_values) {
    body = (
      <EmptyState
        icon={<Network />}
        title={t("noMv.title")}
        description={t("noMv.description")}
      >
        <Button variant="secondary" onClick={() => setSearch({ voltage: "lv" }, false)}>
          {t("noMv.showLv")}
        </Button>
      </EmptyState>
    );
  } else if (nodeCount === 0) {
    body = <StructureMissing />;
  } else {
    body = (
      <div className="flex min-h-[32rem] flex-1 flex-col gap-3">
        <StatusFilter
          status={data}
          nodeCount={nodeCount}
          filter={filter}
          query={query}
          onFilter={(state) => setSearch({ state })}
          onQuery={(q) => setSearch({ q: q || undefined })}
        />
        {status.error
          ? (
            <Notice
              tone="warning"
              action={
                <Button size="sm" variant="ghost" onClick={status.refresh}>
                  {t("common:states.tryReload")}
                </Button>
              }
            >
              {t("refreshFailed")}
            </Notice>
          )
          : null}
        <div className="flex min-h-0 flex-1 gap-0">
          <div
            className="flex min-h-0 shrink-0 flex-col overflow-hidden rounded-lg border bg-surface"
            style={{ width: listWidth }}
          >
            {rows.length
              ? (
                <GridList
                  rows={rows}
                  selected={selected}
                  onSelect={(id) => select(id === selected ? null : id)}
                  label={t("list.label")}
                />
              )
              : (
                <EmptyState
                  className="m-3 border-0"
                  title={t("filter.none")}
                  description={filter === "ALARMS"
                    ? t("filter.alarms")
                    : filter
                    ? t(`states.${filter}`)
                    : query}
                >
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => setSearch({ state: undefined, q: undefined })}
                  >
                    {t("filter.clear")}
                  </Button>
                </EmptyState>
              )}
          </div>
          <Splitter width={listWidth} onWidth={setListWidth} label={t("resize")} />
          <div className="flex min-h-0 min-w-0 flex-1 gap-3">
            <div
              className={cn(
                "min-h-0 min-w-0 flex-1 flex-col",
                selected ? "hidden 2xl:flex" : "flex",
              )}
            >
              <LazyGridMap
                className="min-h-0 flex-1"
                label={t("mapLabel")}
                unavailableText={t("infrastructure:view.mapUnavailable")}
                points={points}
                network={network}
                basemap={onlineBasemap(customer)}
                overlays={overlays}
                focus={focus}
                center={customer.map_center}
                onSelect={(id) => {
                  clickedOnMap.current = true;
                  select(id);
                }}
                legend={(["OK", "OVERVOLTAGE", "NO_DATA", "INTERRUPTION"] as const).map((s) => ({
                  state: STATE_LOOK[s].map,
                  label: s === "OVERVOLTAGE" ? t("legend.warning") : t(`states.${s}`),
                }))}
              />
            </div>
            {selected && selectedMissing
              ? (
                <aside
                  data-testid="node-panel"
                  className="flex min-h-0 min-w-0 flex-1 flex-col overflow-hidden rounded-lg border bg-surface 2xl:max-w-[46rem]"
                >
                  <EmptyState
                    className="m-3 border-0"
                    icon={<Network />}
                    title={level === "MV" ? t("noMvNode.title") : t("missingNode.title")}
                    description={level === "MV"
                      ? t("noMvNode.description")
                      : t("missingNode.description")}
                  >
                    {level === "MV"
                      ? (
                        <Button
                          variant="secondary"
                          onClick={() => setSearch({ voltage: "lv" }, false)}
                        >
                          {t("noMvNode.showLv")}
                        </Button>
                      )
                      : null}
                    <Button variant="ghost" onClick={() => select(null)}>
                      {t("missingNode.close")}
                    </Button>
                  </EmptyState>
                </aside>
              )
              : selected
              ? (
                <NodePanel
                  key={`${selected}|${level}`}
                  nodeId={selected}
                  level={level}
                  evaluatedAt={data.evaluated_at}
                  live={runMode === "auto"}
                  admin={admin}
                  period={period}
                  onPeriod={(p) => setSearch({ period: p === "24h" ? undefined : p })}
                  onClose={() => select(null)}
                  onSelect={select}
                />
              )
              : null}
          </div>
        </div>
      </div>
    );
  }

  return (
    <Page
      title={`${t("modules:grid-monitoring.title")} · ${t(`level.${level}`)}`}
      subtitle={t("purpose")}
      actions={actions}
    >
      {body}
    </Page>
  );
}
