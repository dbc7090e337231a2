/** Create a node (with its electrical work and 1 to 6 feeders) or edit it. */
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../ui/button.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Select } from "../../../ui/select.tsx";
import { type FeederDraft, feederDraft, FeederFields, feederForm } from "./feeder-fields.tsx";
import { FormDialog, type Messages, useMessageText, useSave } from "./form-dialog.tsx";
import {
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  type GridNode,
  type LvGroup,
} from "./grid-api.ts";
import { suggestedPosition } from "./grid-items.ts";
import {
  coordinateMessage,
  type FeederForm,
  feederMessages,
  GRID_NAME,
  MAX_FEEDERS,
  nameMessage,
  NEW_NODE_NAME,
  type NodeForm,
  parseNumber,
  type RuleMessage,
} from "./rules.ts";

/** Create a node (with its electrical work and 1 to 6 feeders) or edit it. */
export function NodeDialog({
  node,
  lvGroup,
  open,
  onOpenChange,
  onSubmit,
}: {
  node?: GridNode;
  lvGroup: LvGroup;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (input: NodeForm, feeders: FeederForm[]) => Promise<unknown>;
}) {
  const { t } = useTranslation("infrastructure");
  const text = useMessageText();
  const [name, setName] = useState(node?.name ?? "");
  const [ewName, setEwName] = useState(node?.electrical_work.name ?? "");
  const [ewType, setEwType] = useState<ElectricalWorkType>(
    node?.electrical_work.type ?? "LV_CABINET",
  );
  // A new node starts at the centre of its LV group's nodes; the user moves it from there.
  const [lat, setLat] = useState(() =>
    node ? String(node.latitude) : String(suggestedPosition(lvGroup)?.latitude ?? "")
  );
  const [lng, setLng] = useState(() =>
    node ? String(node.longitude) : String(suggestedPosition(lvGroup)?.longitude ?? "")
  );
  const [distance, setDistance] = useState(node ? String(node.electrical_distance) : "");
  const [upstream, setUpstream] = useState(node?.upstream_node_id ?? "");
  const [drafts, setDrafts] = useState<FeederDraft[]>(() => (node ? [] : [feederDraft()]));
  const [touched, setTouched] = useState(false);
  const { busy, formError, serverFields, save } = useSave(() => onOpenChange(false));

  const renamed = !node || name.trim() !== node.name;
  const latitude = parseNumber(lat), longitude = parseNumber(lng);
  const electricalDistance = parseNumber(distance);
  const messages: Messages = {};
  const add = (path: string, m: RuleMessage | null) => m && (messages[path] = m);
  add("name", nameMessage(name, renamed ? NEW_NODE_NAME : GRID_NAME));
  add("electrical_work.name", nameMessage(ewName, GRID_NAME));
  add("latitude", coordinateMessage(latitude, 90));
  add("longitude", coordinateMessage(longitude, 180));
  if (electricalDistance !== null && (Number.isNaN(electricalDistance) || electricalDistance < 0)) {
    add("electrical_distance", { key: "validation.onlyNumbers" });
  }
  const feederInputs = drafts.map(feederForm);
  feederInputs.forEach((f, i) => {
    for (const [field, m] of Object.entries(feederMessages(f))) {
      messages[`feeders.${i}.${field}`] = m;
    }
  });
  const show = (path: string) => text((touched ? messages[path] : undefined) ?? serverFields[path]);
  const upstreamOptions = [
    { value: "-", label: t("placeholders.noUpstream") },
    ...lvGroup.nodes.filter((n) => n.id !== node?.id).map((n) => ({ value: n.id, label: n.name })),
  ];

  return (
    <FormDialog
      wide
      open={open}
      onOpenChange={onOpenChange}
      title={t(node ? "dialogs.edit.node" : "dialogs.create.node")}
      description={t("dialogs.nodeIn", { name: lvGroup.name })}
      busy={busy}
      error={formError}
      onSubmit={() => {
        setTouched(true);
        if (Object.keys(messages).length) return;
        void save(() =>
          onSubmit({
            name: name.trim(),
            electrical_work: { name: ewName.trim(), type: ewType },
            latitude,
            longitude,
            electrical_distance: electricalDistance,
            upstream_node_id: upstream || null,
          }, feederInputs)
        );
      }}
    >
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <FormField
          label={t("fields.nodeName")}
          error={show("name")}
          hint={renamed ? t("hints.nodeName") : undefined}
        >
          {(p) => <Input {...p} value={name} autoFocus onChange={(e) => setName(e.target.value)} />}
        </FormField>
        <FormField label={t("fields.electricalWorkName")} error={show("electrical_work.name")}>
          {(p) => <Input {...p} value={ewName} onChange={(e) => setEwName(e.target.value)} />}
        </FormField>
        <FormField label={t("fields.electricalWorkType")} error={show("electrical_work.type")}>
          {(p) => (
            <Select
              {...p}
              value={ewType}
              onValueChange={(v) => setEwType(v as ElectricalWorkType)}
              options={ELECTRICAL_WORK_TYPES.map((v) => ({
                value: v,
                label: t(`electricalWorkTypes.${v}`),
              }))}
            />
          )}
        </FormField>
        <FormField label={t("fields.latitude")} error={show("latitude")}>
          {(p) => (
            <Input
              {...p}
              inputMode="decimal"
              value={lat}
              onChange={(e) => setLat(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("fields.longitude")} error={show("longitude")}>
          {(p) => (
            <Input
              {...p}
              inputMode="decimal"
              value={lng}
              onChange={(e) => setLng(e.target.value)}
            />
          )}
        </FormField>
        <FormField
          label={t("fields.electricalDistance")}
          error={show("electrical_distance")}
          hint={t("hints.electricalDistance")}
        >
          {(p) => (
            <Input
              {...p}
              inputMode="decimal"
              value={distance}
              onChange={(e) => setDistance(e.target.value)}
            />
          )}
        </FormField>
        <FormField
          label={t("fields.upstreamNode")}
          error={show("upstream_node_id")}
          className="col-span-2 sm:col-span-3"
        >
          {(p) => (
            <Select
              {...p}
              value={upstream || "-"}
              onValueChange={(v) => setUpstream(v === "-" ? "" : v)}
              options={upstreamOptions}
            />
          )}
        </FormField>
      </div>
      {node ? null : (
        <fieldset className="grid gap-3">
          <legend className="mb-1 text-sm font-semibold">
            {t("dialogs.feeders", { count: drafts.length, max: MAX_FEEDERS })}
          </legend>
          {show("feeders")
            ? <p role="alert" className="text-xs text-state-critical">{show("feeders")}</p>
            : null}
          {drafts.map((draft, i) => (
            <div key={i} className="rounded-md border p-3">
              <div className="mb-2 flex items-center justify-between">
                <span className="text-xs font-medium text-muted-foreground">
                  {t("dialogs.feederSlot", { slot: i + 1 })}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={drafts.length === 1}
                  aria-label={t("actions.removeFeeder", { slot: i + 1 })}
                  onClick={() => setDrafts(drafts.filter((_, k) => k !== i))}
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
              <FeederFields
                draft={draft}
                onChange={(next) => setDrafts(drafts.map((d, k) => (k === i ? next : d)))}
                show={(field) =>
                  text(
                    (touched ? messages[`feeders.${i}.${field}`] : undefined) ??
                      serverFields[`feeders.${i}.${field}`] ??
                      serverFields[`feeders.${i}.parameters.${field}`],
                  )}
              />
            </div>
          ))}
          <div>
            <Button
              variant="secondary"
              size="sm"
              disabled={drafts.length >= MAX_FEEDERS}
              onClick={() => setDrafts([...drafts, feederDraft()])}
            >
              <Plus aria-hidden />
              {t("actions.addFeeder")}
            </Button>
          </div>
        </fieldset>
      )}
    </FormDialog>
  );
}
