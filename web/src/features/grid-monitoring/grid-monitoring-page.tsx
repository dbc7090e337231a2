/**
 * Grid Monitoring (spec 2.1): the state of every node of the LV or MV grid from
 * GET /evm/grid-monitoring/grid-status, as counts, a grouped list and a map side by side, and
 * the detail of one node. Refreshed every 30 s in Auto run mode, on request in Manual mode.
 * Every choice lives in the URL (?voltage, state, q, node, period): reload and share keep it.
 */
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { BellRing, Network, RefreshCw, Search, TriangleAlert } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { isAdminOf } from "../../lib/access.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { runModeAtom, useMvAvailability } from "../../lib/shell-atoms.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { voltageOf } from "../../lib/voltage.ts";
import { GridMap, type MapFocus, type MapPoint } from "../../map/grid-map.tsx";
import { useMapOverlays } from "../../map/map-layers.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input } from "../../ui/input.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { GridList } from "./grid-list.tsx";
import { listRows } from "./logic.ts";
import {
  GRID_STATES,
  type GridState,
  type GridStatus,
  type Level,
  type NodeStatus,
} from "./grid-types.ts";
import { NodePanel, type Period, PERIODS } from "./node-panel.tsx";
import { STATE_LOOK, StateBadge } from "./state-look.tsx";
import { REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";

const isState = (v: unknown): v is GridState => GRID_STATES.includes(v as GridState);
const WIDTH_KEY = "gw.gridMonitoring.listWidth";
const MIN_LIST = 380;

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
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const voltage = voltageOf(search);
  const level: Level = voltage === "mv" ? "MV" : "LV";
  const filter = isState(search.state) ? search.state : null;
  const query = typeof search.q === "string" ? search.q : "";
  const selected = typeof search.node === "string" && search.node ? search.node : null;
  const period: Period = PERIODS.includes(search.period as Period)
    ? search.period as Period
    : "24h";
  const runMode = useAtomValue(runModeAtom);
  const admin = isAdminOf(claims.appsRoles, "app:grid-monitoring") ||
    claims.role === "super-admin";

  const setSearch = (patch: Record<string, unknown>, replace = true) =>
    void navigate({
      to: "/grid-monitoring",
      search: (prev: Record<string, unknown>) => {
        const next: Record<string, unknown> = { ...prev, ...patch };
        for (const k of Object.keys(next)) {
          if (next[k] === undefined || next[k] === null || next[k] === "") delete next[k];
        }
        return next;
      },
      replace,
    } as never);

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
  useMvAvailability(data?.has_mv_values ?? true);

  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (n: NodeStatus) =>
      (!filter || n.state === filter) &&
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
          }]
          : []
      ),
    [rows, t],
  );
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
  const select = (id: string | null) => setSearch({ node: id }, false);

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
    body = <EmptyState icon={<Network />} title={t("noStructure")} />;
  } else {
    body = (
      <div className="flex min-h-[32rem] flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <div
            role="group"
            aria-label={t("filter.label")}
            className="flex flex-wrap items-center gap-1.5"
          >
            <button
              type="button"
              aria-pressed={filter === null}
              onClick={() => setSearch({ state: undefined })}
              className={cn(
                "inline-flex h-8 items-center gap-2 rounded-md border px-3 text-sm transition-colors",
                filter === null
                  ? "border-primary bg-accent text-accent-foreground"
                  : "bg-surface hover:bg-surface-muted",
              )}
            >
              {t("filter.all")}
              <span className="tabular font-semibold">{nodeCount}</span>
            </button>
            {GRID_STATES.map((s) => (
              <button
                key={s}
                type="button"
                aria-pressed={filter === s}
                data-testid={`count-${s}`}
                onClick={() => setSearch({ state: filter === s ? undefined : s })}
                className={cn(
                  "inline-flex h-8 items-center gap-2 rounded-md border px-2 text-sm transition-colors",
                  filter === s
                    ? "border-primary bg-accent text-accent-foreground"
                    : "bg-surface hover:bg-surface-muted",
                  data.counts[s] === 0 && filter !== s && "opacity-60",
                )}
              >
                <StateBadge state={s} />
                <span className="tabular min-w-5 text-right font-semibold">{data.counts[s]}</span>
              </button>
            ))}
          </div>
          <span
            className={cn(
              "inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium",
              data.alarms
                ? "bg-state-critical-soft text-state-critical"
                : "bg-state-ok-soft text-state-ok",
            )}
            title={t("alarmsHint")}
            data-testid="alarms"
          >
            <BellRing aria-hidden className="size-4" />
            {t("alarms", { count: data.alarms })}
          </span>
          <label className="relative ml-auto w-56">
            <span className="sr-only">{t("searchLabel")}</span>
            <Search
              aria-hidden
              className="pointer-events-none absolute left-2 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              type="search"
              value={query}
              placeholder={t("searchPlaceholder")}
              className="pl-8"
              onChange={(e) => setSearch({ q: e.target.value })}
            />
          </label>
        </div>
        {status.error
          ? (
            <div
              role="alert"
              className="flex items-center gap-2 rounded-md border border-state-warning/40 bg-state-warning-soft px-3 py-1.5 text-sm"
            >
              <TriangleAlert aria-hidden className="size-4 text-state-warning" />
              {t("refreshFailed")}
              <Button size="sm" variant="ghost" onClick={status.refresh}>
                {t("common:states.tryReload")}
              </Button>
            </div>
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
                  description={filter ? t(`states.${filter}`) : query}
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
              <GridMap
                className="min-h-0 flex-1"
                label={t("mapLabel")}
                unavailableText={t("infrastructure:view.mapUnavailable")}
                points={points}
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
            {selected
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

/** The handle between the list and the map: drag it, or focus it and use the arrow keys. */
function Splitter(
  { width, onWidth, label }: { width: number; onWidth: (w: number) => void; label: string },
) {
  const max = () => Math.max(MIN_LIST, window.innerWidth - 520);
  const clamp = (w: number) => Math.min(max(), Math.max(MIN_LIST, w));
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(width)}
      aria-valuemin={MIN_LIST}
      tabIndex={0}
      className="group flex w-3 shrink-0 cursor-col-resize items-center justify-center focus-visible:outline-none"
      onPointerDown={(e) => {
        const startX = e.clientX;
        const startW = width;
        const target = e.currentTarget;
        target.setPointerCapture(e.pointerId);
        const move = (m: PointerEvent) => onWidth(clamp(startW + m.clientX - startX));
        const up = () => {
          target.removeEventListener("pointermove", move);
          target.removeEventListener("pointerup", up);
        };
        target.addEventListener("pointermove", move);
        target.addEventListener("pointerup", up);
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft") onWidth(clamp(width - 32));
        else if (e.key === "ArrowRight") onWidth(clamp(width + 32));
        else return;
        e.preventDefault();
      }}
    >
      <span className="h-10 w-1 rounded-full bg-border transition-colors group-hover:bg-primary group-focus-visible:bg-ring" />
    </div>
  );
}
