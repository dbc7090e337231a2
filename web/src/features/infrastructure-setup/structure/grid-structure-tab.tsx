/**
 * The Grid structure tab: the station group > MV feeder group > LV group > node tree with its
 * create, edit and delete dialogs, the electrical-works search, the details of the selected
 * item, and a list/map switch with the uploaded map layers. The view and the selected item live
 * in the URL (`?view=map&item=node:<id>`).
 */
import { getRouteApi, useLocation } from "@tanstack/react-router";
import { Layers, Network, Plus } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { bareHash, isAdminOf } from "../../../lib/access.ts";
import { useSession } from "../../../lib/session-atoms.ts";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { GridMap, type MapFocus } from "../../../map/grid-map.tsx";
import { ListMapSwitch } from "../../../map/list-map-switch.tsx";
import { useMapOverlays } from "../../../map/map-layers.ts";
import { buildNetwork, type MapNetwork } from "../../../map/network.ts";
import { onlineBasemap } from "../../../map/use-network.ts";
import { Button } from "../../../ui/button.tsx";
import { EmptyState } from "../../../ui/empty-state.tsx";
import { AsyncState } from "../../../ui/loader.tsx";
import { Notice } from "../../../ui/notice.tsx";
import { ElectricalWorksSearch } from "./electrical-works-search.tsx";
import { gridApi } from "./grid-api.ts";
import {
  deleteBlocker,
  formatItem,
  locate,
  parseItem,
  type Selection,
  structurePoints,
} from "./grid-items.ts";
import { StructureDetails } from "./structure-details.tsx";
import {
  type Deletable,
  deleteItem,
  type DialogState,
  StructureDialogs,
} from "./structure-dialogs.tsx";
import { StructureTree } from "./structure-tree.tsx";

const SETUP_KEY = "hes:infrastructure-setup";
const route = getRouteApi("/infrastructure-setup");

export function GridStructureTab() {
  const { t } = useTranslation(["infrastructure", "errors", "common"]);
  const { claims, customer } = useSession();
  const canEdit = isAdminOf(claims.appsRoles, SETUP_KEY) || claims.role === "super-admin";
  const structure = useAsync((signal) => gridApi.structure(signal), []);
  // The network's lines under the points (which carry the stations and groups themselves).
  const network = useMemo(
    () => structure.status === "success" ? setupNetwork(structure.data) : null,
    [structure],
  );
  const [layersKey, setLayersKey] = useState(0);
  const { layers, overlays, failed: layersFailed } = useMapOverlays(layersKey);
  const errorText = useErrorText();
  const search = route.useSearch();
  const hash = bareHash(useLocation().hash);
  const navigate = route.useNavigate();
  const view = search.view === "map" ? "map" : "list";
  const selection = parseItem(search.item);
  const setSearch = (patch: { view?: "list" | "map"; item?: string | undefined }) =>
    void navigate({
      search: (prev) => ({ ...prev, ...patch }),
      hash: hash || undefined,
      replace: true,
    });
  const setSelection = (next: Selection | null) =>
    setSearch({ item: next ? formatItem(next) : undefined });
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<DialogState>(null);
  const [notice, setNotice] = useState<
    { tone: "error" | "info"; text: string; code?: number } | null
  >(null);
  const [focus, setFocus] = useState<MapFocus | null>(null);

  const data = structure.status === "success" ? structure.data : [];
  const points = useMemo(
    () =>
      structurePoints(
        data,
        (kind, item) =>
          kind === "node" && item.type
            ? `${item.name} · ${t(`electricalWorkTypes.${item.type}`)}`
            : t(`kinds.${kind}`),
      ),
    [data, t],
  );

  // A refusal or confirmation is about the element it was for: another selection clears it.
  const select = (next: Selection) => {
    if (next.id !== selection?.id) setNotice(null);
    setSelection(next);
    setFocus((f) => ({ id: next.id, seq: (f?.seq ?? 0) + 1 }));
  };
  // An element selected by the URL is shown on the map once the structure is there.
  const focusedFromUrl = useRef(false);
  useEffect(() => {
    if (focusedFromUrl.current || !selection || structure.status !== "success") return;
    focusedFromUrl.current = true;
    setFocus({ id: selection.id, seq: 1 });
  }, [selection, structure.status]);
  const setOpen = (ids: string[], open: boolean) =>
    setCollapsed((c) => {
      const next = new Set(c);
      for (const id of ids) open ? next.delete(id) : next.add(id);
      return next;
    });
  const toggle = (id: string) => setOpen([id], collapsed.has(id));
  const done = (info?: string) => {
    structure.reload();
    setNotice(info ? { tone: "info", text: info } : null);
  };

  const runDelete = async (what: Deletable) => {
    setNotice(null);
    try {
      const { cellIds } = await deleteItem(what);
      if (what.kind !== "feeder") setSelection(null);
      done(cellIds.length ? t("notices.cellsReturned", { count: cellIds.length }) : undefined);
    } catch (error) {
      setNotice({ tone: "error", ...errorText(error) });
    }
  };

  const located = selection ? locate(data, selection) : null;
  /** Opens a dialog; a delete that a rule of spec 5 blocks says why instead of asking. */
  const openDialog = (next: DialogState) => {
    if (next?.type === "delete") {
      const blocker = deleteBlocker(data, next.what);
      if (blocker) {
        setNotice({ tone: "error", text: t(`errors:${blocker}`) });
        return;
      }
    }
    setDialog(next);
  };
  const addStation = canEdit
    ? (
      <Button onClick={() => setDialog({ type: "group", kind: "station" })}>
        <Plus aria-hidden />
        {t("actions.addStation")}
      </Button>
    )
    : null;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 pt-3">
      <div className="flex flex-wrap items-center gap-2">
        <ElectricalWorksSearch
          onPick={(hit) => {
            setOpen([hit.station_group.id, hit.mv_feeder_group.id, hit.lv_group.id], true);
            select({ kind: "node", id: hit.node_id });
          }}
        />
        <ListMapSwitch
          value={view}
          onChange={(next) => setSearch({ view: next })}
          labels={{ group: t("view.label"), list: t("view.list"), map: t("view.map") }}
        />
        <div className="ml-auto flex items-center gap-2">
          <Button variant="secondary" onClick={() => setDialog({ type: "layers" })}>
            <Layers aria-hidden />
            {t("mapLayers.button", { count: layers.length })}
          </Button>
          {addStation}
        </div>
      </div>

      {notice
        ? (
          <Notice
            tone={notice.tone === "error" ? "critical" : "ok"}
            code={notice.code}
            action={
              <Button variant="ghost" size="sm" onClick={() => setNotice(null)}>
                {t("common:actions.close")}
              </Button>
            }
          >
            {notice.text}
          </Notice>
        )
        : null}

      <AsyncState state={structure} onRetry={structure.reload}>
        {(groups) =>
          groups.length === 0
            ? (
              <EmptyState
                icon={<Network />}
                title={t("errors:grid.structureNotDefined")}
                description={canEdit ? t("empty.admin") : t("empty.reader")}
              >
                {addStation}
              </EmptyState>
            )
            : (
              <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-[minmax(22rem,30rem)_1fr]">
                <nav
                  aria-label={t("tree.label")}
                  className="min-h-0 overflow-auto rounded-lg border bg-surface p-1.5"
                >
                  <StructureTree
                    groups={groups}
                    collapsed={collapsed}
                    toggle={toggle}
                    selection={selection}
                    select={select}
                    canEdit={canEdit}
                    setDialog={openDialog}
                  />
                </nav>
                {view === "map"
                  ? (
                    <div className="flex min-h-[28rem] flex-col gap-1">
                      <GridMap
                        className="flex-1"
                        label={t("view.mapLabel")}
                        unavailableText={t("view.mapUnavailable")}
                        points={points}
                        overlays={overlays}
                        focus={focus}
                        center={customer.map_center}
                        basemap={onlineBasemap(customer)}
                        network={network}
                        colorBy="kind"
                        legend={(["station", "mvFeederGroup", "lvGroup", "node"] as const).map((
                          kind,
                        ) => ({ kind, label: t(`kinds.${kind}`) }))}
                        onSelect={(id) => {
                          const found = points.find((p) => p.id === id);
                          if (!found) return;
                          const kind = found.kind === "electricalWork" ? "node" : found.kind;
                          if (id !== selection?.id) setNotice(null);
                          setSelection({ kind, id } as Selection);
                        }}
                      />
                      {layersFailed
                        ? (
                          <p role="alert" className="text-xs text-state-critical">
                            {t("errors:messages.unableToLoadMapLayer")}
                          </p>
                        )
                        : null}
                    </div>
                  )
                  : (
                    <section
                      aria-label={t("details.label")}
                      className="min-h-0 overflow-auto rounded-lg border bg-surface p-4"
                    >
                      {located
                        ? (
                          <StructureDetails
                            located={located}
                            canEdit={canEdit}
                            setDialog={openDialog}
                          />
                        )
                        : <p className="text-sm text-muted-foreground">{t("details.none")}</p>}
                    </section>
                  )}
              </div>
            )}
      </AsyncState>

      <StructureDialogs
        dialog={dialog}
        setDialog={setDialog}
        done={done}
        select={select}
        runDelete={(what) => void runDelete(what)}
        layers={layers}
        canEdit={canEdit}
        onLayersChanged={() => setLayersKey((k) => k + 1)}
      />
    </div>
  );
}

/**
 * The structure's lines (MV feeders, LV groups) for the setup map, in the neutral colour (setup
 * measures nothing); its places are left out, the map's points name the stations and groups.
 */
function setupNetwork(groups: Parameters<typeof buildNetwork>[0]): MapNetwork {
  const { lines } = buildNetwork(groups, () => undefined);
  for (const line of lines.features) line.properties = { ...line.properties, state: "neutral" };
  return { lines, places: { type: "FeatureCollection", features: [] } };
}
