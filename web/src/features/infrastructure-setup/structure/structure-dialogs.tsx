/**
 * The dialogs of the Grid structure tab: which one is open (`DialogState`, set by the tree and
 * the details), and the host that shows it and makes its call (create, change, delete of the
 * three group levels, nodes and feeders; the map layers).
 */
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { MapLayersDialog } from "../map-layers/map-layers-dialog.tsx";
import { FeederDialog } from "./feeder-dialog.tsx";
import { type Feeder, gridApi, type GridNode, type LvGroup, type MapLayer } from "./grid-api.ts";
import type { Selection } from "./grid-items.ts";
import { GroupDialog, type GroupKind, type GroupValue } from "./group-dialog.tsx";
import { NodeDialog } from "./node-dialog.tsx";
import { feederBody, newNodeBody, nodeBody } from "./rules.ts";

/** What can be deleted: a tree item, or a feeder of a node. */
export type Deletable = Selection | { kind: "feeder"; id: string; nodeId: string };

/** The open dialog, if any. */
export type DialogState =
  | {
    type: "group";
    kind: GroupKind;
    parentId?: string;
    edit?: { id: string; name: string; latitude?: number | null; longitude?: number | null };
  }
  | { type: "node"; lvGroup: LvGroup; node?: GridNode }
  | { type: "feeder"; node: GridNode; feeder?: Feeder }
  | { type: "delete"; what: Deletable; name: string }
  | { type: "layers" }
  | null;

export type SetDialog = (dialog: DialogState) => void;

/** The create and change calls of each group level. */
const GROUP_CALLS: Record<
  GroupKind,
  {
    create: (parentId: string, value: GroupValue) => Promise<unknown>;
    update: (id: string, value: GroupValue) => Promise<unknown>;
  }
> = {
  station: {
    create: (_parent, value) => gridApi.createStationGroup(value),
    update: (id, value) => gridApi.updateStationGroup(id, value),
  },
  mvFeederGroup: {
    create: (parent, { name }) => gridApi.createMvFeederGroup({ station_group_id: parent, name }),
    update: (id, { name }) => gridApi.updateMvFeederGroup(id, { name }),
  },
  lvGroup: {
    create: (parent, { name }) => gridApi.createLvGroup({ mv_feeder_group_id: parent, name }),
    update: (id, { name }) => gridApi.updateLvGroup(id, { name }),
  },
};

/** The delete call of each deletable kind (a node answers the cells it sent back to waiting). */
export async function deleteItem(what: Deletable): Promise<{ cellIds: string[] }> {
  switch (what.kind) {
    case "station":
      await gridApi.deleteStationGroup(what.id);
      break;
    case "mvFeederGroup":
      await gridApi.deleteMvFeederGroup(what.id);
      break;
    case "lvGroup":
      await gridApi.deleteLvGroup(what.id);
      break;
    case "node":
      return await gridApi.deleteNode(what.id);
    case "feeder":
      await gridApi.deleteFeeder(what.nodeId, what.id);
  }
  return { cellIds: [] };
}

/** Shows the open dialog and makes its call; `done` reloads the structure with a notice. */
export function StructureDialogs({
  dialog,
  setDialog,
  done,
  select,
  runDelete,
  layers,
  canEdit,
  onLayersChanged,
}: {
  dialog: DialogState;
  setDialog: SetDialog;
  done: (info?: string) => void;
  select: (selection: Selection) => void;
  runDelete: (what: Deletable) => void;
  layers: MapLayer[];
  canEdit: boolean;
  onLayersChanged: () => void;
}) {
  const { t } = useTranslation(["infrastructure", "errors"]);
  const close = (open: boolean) => !open && setDialog(null);
  return (
    <>
      {dialog?.type === "group"
        ? (
          <GroupDialog
            open
            kind={dialog.kind}
            {...(dialog.edit ? { initial: dialog.edit } : {})}
            onOpenChange={close}
            onSubmit={async (value) => {
              const calls = GROUP_CALLS[dialog.kind];
              await (dialog.edit
                ? calls.update(dialog.edit.id, value)
                : calls.create(dialog.parentId ?? "", value));
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
            onOpenChange={close}
            onSubmit={async (input, feeders) => {
              const node = dialog.node
                ? await gridApi.updateNode(dialog.node.id, nodeBody(input))
                : await gridApi.createNode(newNodeBody(input, dialog.lvGroup.id, feeders));
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
            onOpenChange={close}
            onSubmit={async (input) => {
              const body = feederBody(input);
              const result = dialog.feeder
                ? await gridApi.updateFeeder(dialog.node.id, dialog.feeder.id, body)
                : await gridApi.addFeeder(dialog.node.id, body);
              done(result.mapping_revalidation_required ? t("notices.revalidate") : undefined);
            }}
          />
        )
        : null}
      <ConfirmDialog
        open={dialog?.type === "delete"}
        onOpenChange={close}
        title={t("confirm.title", { name: dialog?.type === "delete" ? dialog.name : "" })}
        description={t("errors:validation.deleteConfirm")}
        confirmLabel={t("errors:validation.deleteConfirmButton")}
        cancelLabel={t("actions.cancel")}
        onConfirm={() => {
          if (dialog?.type === "delete") runDelete(dialog.what);
          setDialog(null);
        }}
      />
      <MapLayersDialog
        open={dialog?.type === "layers"}
        onOpenChange={close}
        layers={layers}
        canEdit={canEdit}
        onChanged={onLayersChanged}
      />
    </>
  );
}
