/**
 * The Grid structure tab: the station group > MV feeder group > LV group > node tree with its
 * create, edit and delete dialogs, the electrical-works search, the details of the selected
 * item, and a list/map switch with the uploaded map layers.
 */
import {
  ChevronDown,
  ChevronRight,
  CircuitBoard,
  Factory,
  GitFork,
  Layers,
  MapPin,
  Network,
  Pencil,
  Plus,
  Trash2,
  Zap,
} from "lucide-react";
import { useLocation, useNavigate, useSearch } from "@tanstack/react-router";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { bareHash, isAdminOf } from "../../../lib/access.ts";
import { useSession } from "../../../lib/session-atoms.ts";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { GridMap, type MapFocus } from "../../../map/grid-map.tsx";
import { useMapOverlays } from "../../../map/map-layers.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { cn } from "../../../ui/cn.ts";
import { EmptyState } from "../../../ui/empty-state.tsx";
import { AsyncState } from "../../../ui/loader.tsx";
import { ElectricalWorksSearch } from "./electrical-works-search.tsx";
import { FeederDialog, GroupDialog, type GroupKind, NodeDialog } from "./grid-dialogs.tsx";
import {
  type Feeder,
  gridApi,
  type GridNode,
  type LvGroup,
  type StationGroup,
} from "./grid-api.ts";
import { formatItem, locate, parseItem, type Selection, structurePoints } from "./grid-items.ts";
import { MapLayersDialog } from "../map-layers/map-layers-dialog.tsx";
import { MvTopologyPanel } from "./mv-topology-panel.tsx";
import { ListMapSwitch } from "../../../map/list-map-switch.tsx";

const SETUP_KEY = "hes:infrastructure-setup";

/** The open dialog, if any. */
type DialogState =
  | {
    type: "group";
    kind: GroupKind;
    parentId?: string;
    edit?: { id: string; name: string; latitude?: number | null; longitude?: number | null };
  }
  | { type: "node"; lvGroup: LvGroup; node?: GridNode }
  | { type: "feeder"; node: GridNode; feeder?: Feeder }
  | {
    type: "delete";
    what: Selection | { kind: "feeder"; id: string; nodeId: string };
    name: string;
  }
  | { type: "layers" }
  | null;

export function GridStructureTab() {
  const { t } = useTranslation(["infrastructure", "errors", "common"]);
  const { claims, customer } = useSession();
  const canEdit = isAdminOf(claims.appsRoles, SETUP_KEY) || claims.role === "super-admin";
  const structure = useAsync((signal) => gridApi.structure(signal), []);
  const [layersKey, setLayersKey] = useState(0);
  const { layers, overlays, failed: layersFailed } = useMapOverlays(layersKey);
  const errorText = useErrorText();
  // The view and the selected element live in the URL (?view=map&item=node:<id>).
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const hash = bareHash(useLocation().hash);
  const navigate = useNavigate();
  const view: "list" | "map" = search.view === "map" ? "map" : "list";
  const selection = parseItem(search.item);
  const setSearch = (patch: { view?: "list" | "map"; item?: string | undefined }) =>
    void navigate({
      to: "/infrastructure-setup",
      search: (prev: Record<string, unknown>) => ({ ...prev, ...patch }),
      hash: hash || undefined,
      replace: true,
    } as never);
  const setView = (next: "list" | "map") => setSearch({ view: next });
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

  const select = (next: Selection) => {
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
  const toggle = (id: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const done = (info?: string) => {
    structure.reload();
    setNotice(info ? { tone: "info", text: info } : null);
  };

  const runDelete = async (what: NonNullable<Extract<DialogState, { type: "delete" }>>["what"]) => {
    setNotice(null);
    try {
      if (what.kind === "station") await gridApi.deleteStationGroup(what.id);
      else if (what.kind === "mvFeederGroup") await gridApi.deleteMvFeederGroup(what.id);
      else if (what.kind === "lvGroup") await gridApi.deleteLvGroup(what.id);
      else if (what.kind === "node") {
        const { cellIds } = await gridApi.deleteNode(what.id);
        done(cellIds.length ? t("notices.cellsReturned", { count: cellIds.length }) : undefined);
        setSelection(null);
        return;
      } else await gridApi.deleteFeeder(what.nodeId, what.id);
      if (what.kind !== "feeder") setSelection(null);
      done();
    } catch (error) {
      setNotice({ tone: "error", ...errorText(error) });
    }
  };

  const located = selection ? locate(data, selection) : null;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 pt-3">
      <div className="flex flex-wrap items-center gap-2">
        <ElectricalWorksSearch
          onPick={(hit) => {
            setCollapsed((c) => {
              const next = new Set(c);
              for (
                const id of [hit.station_group.id, hit.mv_feeder_group.id, hit.lv_group.id]
              ) next.delete(id);
              return next;
            });
            select({ kind: "node", id: hit.node_id });
          }}
        />
        <ListMapSwitch
          value={view}
          onChange={setView}
          labels={{ group: t("view.label"), list: t("view.list"), map: t("view.map") }}
        />
        <div className="ml-auto flex items-center gap-2">
          <Button variant="secondary" onClick={() => setDialog({ type: "layers" })}>
            <Layers aria-hidden />
            {t("mapLayers.button", { count: layers.length })}
          </Button>
          {canEdit
            ? (
              <Button onClick={() => setDialog({ type: "group", kind: "station" })}>
                <Plus aria-hidden />
                {t("actions.addStation")}
              </Button>
            )
            : null}
        </div>
      </div>

      {notice
        ? (
          <div
            role={notice.tone === "error" ? "alert" : "status"}
            className={cn(
              "flex items-start justify-between gap-3 rounded-md border px-3 py-2 text-sm",
              notice.tone === "error"
                ? "border-state-critical/40 bg-state-critical-soft"
                : "border-state-ok/40 bg-state-ok-soft",
            )}
          >
            <span>
              {notice.text}
              {notice.code !== undefined
                ? (
                  <small className="ml-2 text-xs text-muted-foreground">
                    {t("common:errors.code", { code: notice.code })}
                  </small>
                )
                : null}
            </span>
            <Button variant="ghost" size="sm" onClick={() => setNotice(null)}>
              {t("common:actions.close")}
            </Button>
          </div>
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
                {canEdit
                  ? (
                    <Button onClick={() => setDialog({ type: "group", kind: "station" })}>
                      <Plus aria-hidden />
                      {t("actions.addStation")}
                    </Button>
                  )
                  : null}
              </EmptyState>
            )
            : (
              <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-[minmax(22rem,30rem)_1fr]">
                <nav
                  aria-label={t("tree.label")}
                  className="min-h-0 overflow-auto rounded-lg border bg-surface p-1.5"
                >
                  <ul role="tree" aria-label={t("tree.label")}>
                    {groups.map((station) => (
                      <StationItem
                        key={station.id}
                        station={station}
                        collapsed={collapsed}
                        toggle={toggle}
                        selection={selection}
                        select={select}
                        canEdit={canEdit}
                        setDialog={setDialog}
                      />
                    ))}
                  </ul>
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
                        colorBy="kind"
                        legend={(["station", "mvFeederGroup", "lvGroup", "node"] as const).map((
                          kind,
                        ) => ({
                          kind,
                          label: t(`kinds.${kind}`),
                        }))}
                        onSelect={(id) => {
                          const found = points.find((p) => p.id === id);
                          if (found) {
                            setSelection(
                              {
                                kind: found.kind === "electricalWork" ? "node" : found.kind,
                                id,
                              } as Selection,
                            );
                          }
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
                          <Details
                            located={located}
                            canEdit={canEdit}
                            setDialog={setDialog}
                          />
                        )
                        : <p className="text-sm text-muted-foreground">{t("details.none")}</p>}
                    </section>
                  )}
              </div>
            )}
      </AsyncState>

      {dialog?.type === "group"
        ? (
          <GroupDialog
            open
            kind={dialog.kind}
            {...(dialog.edit ? { initial: dialog.edit } : {})}
            onOpenChange={(o) => !o && setDialog(null)}
            onSubmit={async (value) => {
              const edit = dialog.edit;
              if (dialog.kind === "station") {
                await (edit
                  ? gridApi.updateStationGroup(edit.id, value)
                  : gridApi.createStationGroup(value));
              } else if (dialog.kind === "mvFeederGroup") {
                await (edit
                  ? gridApi.updateMvFeederGroup(edit.id, { name: value.name })
                  : gridApi.createMvFeederGroup({
                    station_group_id: dialog.parentId!,
                    name: value.name,
                  }));
              } else {
                await (edit
                  ? gridApi.updateLvGroup(edit.id, { name: value.name })
                  : gridApi.createLvGroup({
                    mv_feeder_group_id: dialog.parentId!,
                    name: value.name,
                  }));
              }
              done();
            }}
          />
        )
        : null}
      {dialog?.type === "node"
        ? (
          <NodeDialog
            open
            lvGroup={dialog.lvGroup}
            {...(dialog.node ? { node: dialog.node } : {})}
            onOpenChange={(o) => !o && setDialog(null)}
            onSubmit={async (input, feeders) => {
              const node = dialog.node
                ? await gridApi.updateNode(dialog.node.id, input)
                : await gridApi.createNode({ ...input, lv_group_id: dialog.lvGroup.id, feeders });
              done();
              select({ kind: "node", id: node.id });
            }}
          />
        )
        : null}
      {dialog?.type === "feeder"
        ? (
          <FeederDialog
            open
            {...(dialog.feeder ? { feeder: dialog.feeder } : {})}
            onOpenChange={(o) => !o && setDialog(null)}
            onSubmit={async (input) => {
              const result = dialog.feeder
                ? await gridApi.updateFeeder(dialog.node.id, dialog.feeder.id, input)
                : await gridApi.addFeeder(dialog.node.id, input);
              done(result.mapping_revalidation_required ? t("notices.revalidate") : undefined);
            }}
          />
        )
        : null}
      <ConfirmDialog
        open={dialog?.type === "delete"}
        onOpenChange={(o) => !o && setDialog(null)}
        title={t("confirm.title", { name: dialog?.type === "delete" ? dialog.name : "" })}
        description={t("errors:validation.deleteConfirm")}
        confirmLabel={t("errors:validation.deleteConfirmButton")}
        cancelLabel={t("actions.cancel")}
        onConfirm={() => {
          if (dialog?.type === "delete") void runDelete(dialog.what);
          setDialog(null);
        }}
      />
      <MapLayersDialog
        open={dialog?.type === "layers"}
        onOpenChange={(o) => !o && setDialog(null)}
        layers={layers}
        canEdit={canEdit}
        onChanged={() => setLayersKey((k) => k + 1)}
      />
    </div>
  );
}

type SetDialog = (dialog: DialogState) => void;

interface TreeProps {
  collapsed: Set<string>;
  toggle: (id: string) => void;
  selection: Selection | null;
  select: (selection: Selection) => void;
  canEdit: boolean;
  setDialog: SetDialog;
}

function Row({
  id,
  kind,
  depth,
  icon,
  name,
  meta,
  expandable,
  props,
  actions,
}: {
  id: string;
  kind: Selection["kind"];
  depth: number;
  icon: ReactNode;
  name: string;
  meta?: string;
  expandable: boolean;
  props: TreeProps;
  actions: ReactNode;
}) {
  const { t } = useTranslation("infrastructure");
  const open = !props.collapsed.has(id);
  const selected = props.selection?.id === id;
  return (
    <div
      className={cn(
        "group flex h-8 items-center gap-1 rounded-md pr-1 text-sm",
        selected ? "bg-accent text-accent-foreground" : "hover:bg-surface-muted",
      )}
      style={{ paddingLeft: `${depth * 1.1 + 0.25}rem` }}
    >
      {expandable
        ? (
          <button
            type="button"
            className="flex size-5 items-center justify-center rounded text-muted-foreground hover:text-foreground"
            aria-label={t(open ? "tree.collapse" : "tree.expand", { name })}
            onClick={() => props.toggle(id)}
          >
            {open
              ? <ChevronDown className="size-4" aria-hidden />
              : <ChevronRight className="size-4" aria-hidden />}
          </button>
        )
        : <span className="size-5" />}
      <button
        type="button"
        className="flex min-w-0 flex-1 items-center gap-1.5 text-left"
        aria-current={selected || undefined}
        onClick={() => props.select({ kind, id } as Selection)}
      >
        <span className="text-muted-foreground [&_svg]:size-4">{icon}</span>
        <span className="truncate font-medium">{name}</span>
        {meta ? <span className="truncate text-xs text-muted-foreground">{meta}</span> : null}
      </button>
      {props.canEdit
        ? (
          <span className="flex shrink-0 items-center opacity-70 group-hover:opacity-100">
            {actions}
          </span>
        )
        : null}
    </div>
  );
}

function IconAction(
  { label, onClick, children }: { label: string; onClick: () => void; children: ReactNode },
) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-7"
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

function StationItem({ station, ...props }: { station: StationGroup } & TreeProps) {
  const { t } = useTranslation("infrastructure");
  const open = !props.collapsed.has(station.id);
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={props.selection?.id === station.id}>
      <Row
        id={station.id}
        kind="station"
        depth={0}
        icon={<Factory />}
        name={station.name}
        meta={t("tree.count.mvFeederGroup", { count: station.mv_feeder_groups.length })}
        expandable={station.mv_feeder_groups.length > 0}
        props={props}
        actions={
          <>
            <IconAction
              label={t("actions.addChild.mvFeederGroup", { name: station.name })}
              onClick={() =>
                props.setDialog({ type: "group", kind: "mvFeederGroup", parentId: station.id })}
            >
              <Plus aria-hidden />
            </IconAction>
            <IconAction
              label={t("actions.editNamed", { name: station.name })}
              onClick={() => props.setDialog({ type: "group", kind: "station", edit: station })}
            >
              <Pencil aria-hidden />
            </IconAction>
            <IconAction
              label={t("actions.deleteNamed", { name: station.name })}
              onClick={() =>
                props.setDialog({
                  type: "delete",
                  what: { kind: "station", id: station.id },
                  name: station.name,
                })}
            >
              <Trash2 aria-hidden />
            </IconAction>
          </>
        }
      />
      {open && station.mv_feeder_groups.length
        ? (
          <ul role="group">
            {station.mv_feeder_groups.map((mv) => {
              const mvOpen = !props.collapsed.has(mv.id);
              return (
                <li
                  key={mv.id}
                  role="treeitem"
                  aria-expanded={mvOpen}
                  aria-selected={props.selection?.id === mv.id}
                >
                  <Row
                    id={mv.id}
                    kind="mvFeederGroup"
                    depth={1}
                    icon={<GitFork />}
                    name={mv.name}
                    meta={t("tree.count.lvGroup", { count: mv.lv_groups.length })}
                    expandable={mv.lv_groups.length > 0}
                    props={props}
                    actions={
                      <>
                        <IconAction
                          label={t("actions.addChild.lvGroup", { name: mv.name })}
                          onClick={() =>
                            props.setDialog({ type: "group", kind: "lvGroup", parentId: mv.id })}
                        >
                          <Plus aria-hidden />
                        </IconAction>
                        <IconAction
                          label={t("actions.editNamed", { name: mv.name })}
                          onClick={() =>
                            props.setDialog({ type: "group", kind: "mvFeederGroup", edit: mv })}
                        >
                          <Pencil aria-hidden />
                        </IconAction>
                        <IconAction
                          label={t("actions.deleteNamed", { name: mv.name })}
                          onClick={() =>
                            props.setDialog({
                              type: "delete",
                              what: { kind: "mvFeederGroup", id: mv.id },
                              name: mv.name,
                            })}
                        >
                          <Trash2 aria-hidden />
                        </IconAction>
                      </>
                    }
                  />
                  {mvOpen && mv.lv_groups.length
                    ? (
                      <ul role="group">
                        {mv.lv_groups.map((lv) => <LvItem key={lv.id} lv={lv} {...props} />)}
                      </ul>
                    )
                    : null}
                </li>
              );
            })}
          </ul>
        )
        : null}
    </li>
  );
}

function LvItem({ lv, ...props }: { lv: LvGroup } & TreeProps) {
  const { t } = useTranslation("infrastructure");
  const open = !props.collapsed.has(lv.id);
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={props.selection?.id === lv.id}>
      <Row
        id={lv.id}
        kind="lvGroup"
        depth={2}
        icon={<Network />}
        name={lv.name}
        meta={t("tree.count.node", { count: lv.nodes.length })}
        expandable={lv.nodes.length > 0}
        props={props}
        actions={
          <>
            <IconAction
              label={t("actions.addChild.node", { name: lv.name })}
              onClick={() => props.setDialog({ type: "node", lvGroup: lv })}
            >
              <Plus aria-hidden />
            </IconAction>
            <IconAction
              label={t("actions.editNamed", { name: lv.name })}
              onClick={() => props.setDialog({ type: "group", kind: "lvGroup", edit: lv })}
            >
              <Pencil aria-hidden />
            </IconAction>
            <IconAction
              label={t("actions.deleteNamed", { name: lv.name })}
              onClick={() =>
                props.setDialog({
                  type: "delete",
                  what: { kind: "lvGroup", id: lv.id },
                  name: lv.name,
                })}
            >
              <Trash2 aria-hidden />
            </IconAction>
          </>
        }
      />
      {open && lv.nodes.length
        ? (
          <ul role="group">
            {lv.nodes.map((node) => (
              <li key={node.id} role="treeitem" aria-selected={props.selection?.id === node.id}>
                <Row
                  id={node.id}
                  kind="node"
                  depth={3}
                  icon={node.electrical_work.type === "MV_LV_STATION" ? <Zap /> : <CircuitBoard />}
                  name={node.name}
                  meta={t("tree.count.feeder", { count: node.feeders.length })}
                  expandable={false}
                  props={props}
                  actions={
                    <>
                      <IconAction
                        label={t("actions.editNamed", { name: node.name })}
                        onClick={() => props.setDialog({ type: "node", lvGroup: lv, node })}
                      >
                        <Pencil aria-hidden />
                      </IconAction>
                      <IconAction
                        label={t("actions.deleteNamed", { name: node.name })}
                        onClick={() =>
                          props.setDialog({
                            type: "delete",
                            what: { kind: "node", id: node.id },
                            name: node.name,
                          })}
                      >
                        <Trash2 aria-hidden />
                      </IconAction>
                    </>
                  }
                />
              </li>
            ))}
          </ul>
        )
        : null}
    </li>
  );
}

function Details({
  located,
  canEdit,
  setDialog,
}: {
  located: NonNullable<ReturnType<typeof locate>>;
  canEdit: boolean;
  setDialog: SetDialog;
}) {
  const { t, i18n } = useTranslation("infrastructure");
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const coords = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 6 });
  const { station, mv, lv, node } = located;
  const path = [station.name, mv?.name, lv?.name].filter(Boolean).join(" › ");

  if (!node) {
    const kind = lv ? "lvGroup" : mv ? "mvFeederGroup" : "station";
    const rows: [string, string][] = lv
      ? [[t("tree.children.node"), String(lv.nodes.length)]]
      : mv
      ? [[t("tree.children.lvGroup"), String(mv.lv_groups.length)]]
      : [
        [t("tree.children.mvFeederGroup"), String(station.mv_feeder_groups.length)],
        [
          t("fields.coordinates"),
          station.latitude !== null && station.longitude !== null
            ? `${coords.format(station.latitude)}, ${coords.format(station.longitude)}`
            : t("details.notSet"),
        ],
      ];
    return (
      <div className="grid gap-3">
        <header>
          <p className="text-xs uppercase tracking-wide text-muted-foreground">
            {t(`kinds.${kind}`)}
          </p>
          <h2 className="text-base font-semibold">{lv?.name ?? mv?.name ?? station.name}</h2>
          {lv || mv ? <p className="text-xs text-muted-foreground">{path}</p> : null}
        </header>
        <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-1.5 text-sm">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="tabular">{v}</dd>
            </div>
          ))}
        </dl>
        {mv && !lv ? <MvTopologyPanel group={mv} canEdit={canEdit} /> : null}
        {canEdit && lv
          ? (
            <div>
              <Button size="sm" onClick={() => setDialog({ type: "node", lvGroup: lv })}>
                <Plus aria-hidden />
                {t("actions.addChild.node", { name: lv.name })}
              </Button>
            </div>
          )
          : null}
      </div>
    );
  }

  const parameterText = (feeder: Feeder) =>
    Object.entries(feeder.parameters)
      .filter(([, v]) => v !== null && v !== undefined && v !== false)
      .map(([k, v]) =>
        typeof v === "boolean"
          ? t(`parameters.${k}`)
          : `${t(`parameters.${k}`)}: ${typeof v === "number" ? number.format(v) : String(v)}`
      )
      .join(" · ");

  return (
    <div className="grid gap-4">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs uppercase tracking-wide text-muted-foreground">{t("kinds.node")}</p>
          <h2 className="text-base font-semibold">{node.name}</h2>
          <p className="text-xs text-muted-foreground">{path}</p>
        </div>
        {canEdit && lv
          ? (
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setDialog({ type: "node", lvGroup: lv, node })}
              >
                <Pencil aria-hidden />
                {t("actions.edit")}
              </Button>
              <Button
                size="sm"
                disabled={node.feeders.length >= 6}
                title={node.feeders.length >= 6 ? t("hints.maxFeeders") : undefined}
                onClick={() => setDialog({ type: "feeder", node })}
              >
                <Plus aria-hidden />
                {t("actions.addFeeder")}
              </Button>
            </div>
          )
          : null}
      </header>
      <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-muted-foreground">{t("fields.electricalWorkName")}</dt>
        <dd>{node.electrical_work.name}</dd>
        <dt className="text-muted-foreground">{t("fields.electricalWorkType")}</dt>
        <dd>{t(`electricalWorkTypes.${node.electrical_work.type}`)}</dd>
        <dt className="text-muted-foreground">{t("fields.coordinates")}</dt>
        <dd className="tabular">
          <MapPin aria-hidden className="mr-1 inline size-3.5 text-muted-foreground" />
          {coords.format(node.latitude)}, {coords.format(node.longitude)}
        </dd>
        <dt className="text-muted-foreground">{t("fields.electricalDistance")}</dt>
        <dd className="tabular">{number.format(node.electrical_distance)}</dd>
      </dl>
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-sm">
          <caption className="sr-only">{t("details.feeders")}</caption>
          <thead className="bg-surface-muted text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-2 py-1.5 text-right">{t("fields.slot")}</th>
              <th scope="col" className="px-2 py-1.5 text-left">{t("fields.feederName")}</th>
              <th scope="col" className="px-2 py-1.5 text-left">{t("fields.feederType")}</th>
              <th scope="col" className="px-2 py-1.5 text-left">{t("fields.inOut")}</th>
              <th scope="col" className="px-2 py-1.5 text-right">{t("fields.nominalCurrent")}</th>
              <th scope="col" className="px-2 py-1.5 text-left">{t("fields.parameters")}</th>
              {canEdit
                ? (
                  <th scope="col" className="px-2 py-1.5">
                    <span className="sr-only">{t("fields.actions")}</span>
                  </th>
                )
                : null}
            </tr>
          </thead>
          <tbody>
            {node.feeders.map((feeder) => (
              <tr key={feeder.id} className="border-t">
                <td className="px-2 py-1.5 text-right tabular">{feeder.slot}</td>
                <td className="px-2 py-1.5 font-medium">{feeder.name}</td>
                <td className="px-2 py-1.5">{t(`feederTypes.${feeder.type}`)}</td>
                <td className="px-2 py-1.5">{t(`inOut.${feeder.in_out}`)}</td>
                <td className="px-2 py-1.5 text-right tabular">
                  {t("units.ampere", { value: number.format(feeder.nominal_current_a) })}
                </td>
                <td className="px-2 py-1.5 text-xs text-muted-foreground">
                  {parameterText(feeder)}
                </td>
                {canEdit
                  ? (
                    <td className="px-1 py-1 text-right whitespace-nowrap">
                      <IconAction
                        label={t("actions.editNamed", { name: feeder.name })}
                        onClick={() => setDialog({ type: "feeder", node, feeder })}
                      >
                        <Pencil aria-hidden />
                      </IconAction>
                      <IconAction
                        label={t("actions.deleteNamed", { name: feeder.name })}
                        onClick={() =>
                          setDialog({
                            type: "delete",
                            what: { kind: "feeder", id: feeder.id, nodeId: node.id },
                            name: feeder.name,
                          })}
                      >
                        <Trash2 aria-hidden />
                      </IconAction>
                    </td>
                  )
                  : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
