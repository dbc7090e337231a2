/** The details of the selected item of the grid structure: a group's counts, or a node with its feeders. */
import { MapPin, Pencil, Plus, Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../ui/button.tsx";
import type { Feeder } from "./grid-api.ts";
import type { locate } from "./grid-items.ts";
import { MvTopologyPanel } from "./mv-topology-panel.tsx";
import { MAX_FEEDERS } from "./rules.ts";
import type { SetDialog } from "./structure-dialogs.tsx";
import { IconAction } from "./structure-tree.tsx";

/** The details of the selected item (`located`: it and the groups above it). */
export function StructureDetails({
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
                disabled={node.feeders.length >= MAX_FEEDERS}
                title={node.feeders.length >= MAX_FEEDERS ? t("hints.maxFeeders") : undefined}
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
