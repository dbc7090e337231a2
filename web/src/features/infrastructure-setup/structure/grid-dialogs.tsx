/**
 * Create and edit dialogs of the grid structure: station group, MV feeder group, LV group, node
 * (with its electrical work and first feeders) and feeder. The forms check the server's rules
 * (rules.ts) before sending and show the server's field issues when it refuses anyway.
 */
import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { Button } from "../../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Select } from "../../../ui/select.tsx";
import { Switch } from "../../../ui/switch.tsx";
import {
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  type Feeder,
  FEEDER_TYPES,
  type FeederInput,
  type FeederType,
  type GridNode,
  type LvGroup,
  type NodeInput,
} from "./grid-api.ts";
import {
  coordinateMessage,
  FEEDER_FIELDS,
  feederMessages,
  GRID_NAME,
  isLine,
  MAX_FEEDERS,
  nameMessage,
  NEW_NODE_NAME,
  parseNumber,
  type RuleMessage,
  VECTOR_GROUPS,
} from "./rules.ts";
import { suggestedPosition } from "./grid-items.ts";

type Messages = Record<string, RuleMessage>;

/** Translates rule messages (namespace `errors`, the server's texts). */
function useMessageText() {
  const { t } = useTranslation("errors");
  return (message: RuleMessage | undefined | null) =>
    message ? t(message.key, message.params ?? {}) : undefined;
}

/** Runs a save: field issues of a refused call go to the fields, other errors to the form. */
function useSave(onDone: () => void) {
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<{ text: string; code?: number } | null>(null);
  const [serverFields, setServerFields] = useState<Messages>({});
  const save = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setFormError(null);
    setServerFields({});
    try {
      await action();
      onDone();
    } catch (error) {
      const issues = error instanceof ApiError && error.body?.key === "common.validation"
        ? (error.body.params.issues as {
          path: string;
          key: string;
          params?: Record<string, unknown>;
        }[] | undefined)
        : undefined;
      if (issues?.length) {
        setServerFields(
          Object.fromEntries(issues.map((i) => [i.path, { key: i.key, params: i.params ?? {} }])),
        );
      } else setFormError(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, formError, serverFields, save, reset: () => setFormError(null) };
}

function FormError({ error }: { error: { text: string; code?: number } | null }) {
  const { t } = useTranslation("common");
  if (!error) return null;
  return (
    <div
      role="alert"
      className="rounded-md border border-state-critical/40 bg-state-critical-soft px-3 py-2 text-sm text-foreground"
    >
      {error.text}
      {error.code !== undefined
        ? (
          <small className="ml-2 text-xs text-muted-foreground">
            {t("errors.code", { code: error.code })}
          </small>
        )
        : null}
    </div>
  );
}

function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  busy,
  error,
  onSubmit,
  children,
  wide,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  busy: boolean;
  error: { text: string; code?: number } | null;
  onSubmit: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const { t } = useTranslation("infrastructure");
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className={wide
          ? "max-h-[90vh] w-[min(48rem,calc(100vw-2rem))] overflow-y-auto"
          : undefined}
      >
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description ? <DialogDescription>{description}</DialogDescription> : null}
          </DialogHeader>
          {children}
          <FormError error={error} />
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" disabled={busy}>{t("actions.save")}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

// --- station group, MV feeder group, LV group

/** What a group dialog edits. */
export type GroupKind = "station" | "mvFeederGroup" | "lvGroup";

/** Create or rename a group; a station group also has optional coordinates. */
export function GroupDialog({
  kind,
  initial,
  open,
  onOpenChange,
  onSubmit,
}: {
  kind: GroupKind;
  initial?: { name: string; latitude?: number | null; longitude?: number | null };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (
    value: { name: string; latitude: number | null; longitude: number | null },
  ) => Promise<unknown>;
}) {
  const { t } = useTranslation("infrastructure");
  const text = useMessageText();
  const [name, setName] = useState(initial?.name ?? "");
  const [lat, setLat] = useState(initial?.latitude?.toString() ?? "");
  const [lng, setLng] = useState(initial?.longitude?.toString() ?? "");
  const [touched, setTouched] = useState(false);
  const { busy, formError, serverFields, save } = useSave(() => onOpenChange(false));
  const latitude = parseNumber(lat), longitude = parseNumber(lng);
  const messages: Messages = {};
  const add = (path: string, m: RuleMessage | null) => m && (messages[path] = m);
  add("name", nameMessage(name, GRID_NAME));
  if (kind === "station") {
    add("latitude", coordinateMessage(latitude, 90, false));
    add("longitude", coordinateMessage(longitude, 180, false));
  }
  const shown = (path: string) =>
    text((touched ? messages[path] : undefined) ?? serverFields[path]);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(`dialogs.${initial ? "edit" : "create"}.${kind}`)}
      busy={busy}
      error={formError}
      onSubmit={() => {
        setTouched(true);
        if (Object.keys(messages).length) return;
        void save(() => onSubmit({ name: name.trim(), latitude, longitude }));
      }}
    >
      <FormField label={t("fields.name")} error={shown("name")} hint={t("hints.gridName")}>
        {(p) => <Input {...p} value={name} autoFocus onChange={(e) => setName(e.target.value)} />}
      </FormField>
      {kind === "station"
        ? (
          <div className="grid grid-cols-2 gap-3">
            <FormField label={t("fields.latitudeOptional")} error={shown("latitude")}>
              {(p) => (
                <Input
                  {...p}
                  inputMode="decimal"
                  value={lat}
                  onChange={(e) => setLat(e.target.value)}
                />
              )}
            </FormField>
            <FormField label={t("fields.longitudeOptional")} error={shown("longitude")}>
              {(p) => (
                <Input
                  {...p}
                  inputMode="decimal"
                  value={lng}
                  onChange={(e) => setLng(e.target.value)}
                />
              )}
            </FormField>
          </div>
        )
        : null}
    </FormDialog>
  );
}

// --- feeders

/** A feeder form's editable state (numbers as typed). */
export interface FeederDraft {
  name: string;
  type: FeederType;
  in_out: "IN" | "OUT";
  nominal_current_a: string;
  values: Record<string, string>;
  vectorGroup: string;
  mvVoltageEstimation: boolean;
  meshed: boolean;
}

export function feederDraft(feeder?: Feeder): FeederDraft {
  const p = feeder?.parameters ?? {};
  const values: Record<string, string> = {};
  for (const fields of Object.values(FEEDER_FIELDS)) {
    for (const f of fields) if (typeof p[f.name] === "number") values[f.name] = String(p[f.name]);
  }
  return {
    name: feeder?.name ?? "",
    type: feeder?.type ?? "LV_LINE",
    in_out: feeder?.in_out ?? "OUT",
    nominal_current_a: feeder ? String(feeder.nominal_current_a) : "",
    values,
    vectorGroup: typeof p.vectorGroup === "string" ? p.vectorGroup : "",
    mvVoltageEstimation: p.mvVoltageEstimation === true,
    meshed: p.meshed === true,
  };
}

/** The feeder a draft sends. */
export function feederInput(d: FeederDraft): FeederInput {
  const parameters: Record<string, unknown> = {};
  for (const f of FEEDER_FIELDS[d.type]) parameters[f.name] = parseNumber(d.values[f.name] ?? "");
  if (d.type === "TRANSFORMER") {
    parameters.vectorGroup = d.vectorGroup;
    parameters.mvVoltageEstimation = d.mvVoltageEstimation;
  }
  if (isLine(d.type)) parameters.meshed = d.meshed;
  return {
    name: d.name.trim(),
    type: d.type,
    in_out: d.in_out,
    nominal_current_a: parseNumber(d.nominal_current_a),
    parameters,
  };
}

/** The fields of one feeder. `prefix` maps server issue paths (e.g. `feeders.0.`). */
export function FeederFields({
  draft,
  onChange,
  show,
}: {
  draft: FeederDraft;
  onChange: (draft: FeederDraft) => void;
  show: (field: string) => string | undefined;
}) {
  const { t } = useTranslation("infrastructure");
  const set = (patch: Partial<FeederDraft>) => onChange({ ...draft, ...patch });
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      <FormField
        label={t("fields.feederName")}
        error={show("name")}
        className="col-span-2 sm:col-span-1"
      >
        {(p) => <Input {...p} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
      </FormField>
      <FormField label={t("fields.feederType")} error={show("type")}>
        {(p) => (
          <Select
            {...p}
            value={draft.type}
            onValueChange={(v) => set({ type: v as FeederType })}
            options={FEEDER_TYPES.map((v) => ({ value: v, label: t(`feederTypes.${v}`) }))}
          />
        )}
      </FormField>
      <FormField label={t("fields.inOut")} error={show("in_out")}>
        {(p) => (
          <Select
            {...p}
            value={draft.in_out}
            onValueChange={(v) => set({ in_out: v as "IN" | "OUT" })}
            options={[{ value: "IN", label: t("inOut.IN") }, {
              value: "OUT",
              label: t("inOut.OUT"),
            }]}
          />
        )}
      </FormField>
      <FormField
        label={t("fields.nominalCurrent")}
        error={show("nominal_current_a")}
        hint={t("hints.range", { min: 5, max: 3000, unit: " A" })}
      >
        {(p) => (
          <Input
            {...p}
            inputMode="decimal"
            value={draft.nominal_current_a}
            onChange={(e) => set({ nominal_current_a: e.target.value })}
          />
        )}
      </FormField>
      {FEEDER_FIELDS[draft.type].map((field) => (
        <FormField
          key={field.name}
          label={t(`parameters.${field.name}`)}
          error={show(field.name)}
          hint={t("hints.range", {
            min: field.min,
            max: field.max,
            unit: field.unit ? ` ${field.unit}` : "",
          })}
        >
          {(p) => (
            <Input
              {...p}
              inputMode="decimal"
              value={draft.values[field.name] ?? ""}
              onChange={(e) => set({ values: { ...draft.values, [field.name]: e.target.value } })}
            />
          )}
        </FormField>
      ))}
      {draft.type === "TRANSFORMER"
        ? (
          <>
            <FormField label={t("parameters.vectorGroup")} error={show("vectorGroup")}>
              {(p) => (
                <Select
                  {...p}
                  value={draft.vectorGroup || undefined}
                  placeholder={t("placeholders.select")}
                  onValueChange={(v) => set({ vectorGroup: v })}
                  options={VECTOR_GROUPS.map((v) => ({ value: v, label: v }))}
                />
              )}
            </FormField>
            <SwitchField
              label={t("parameters.mvVoltageEstimation")}
              checked={draft.mvVoltageEstimation}
              onChange={(v) => set({ mvVoltageEstimation: v })}
              hint={t("hints.mvEstimation")}
            />
          </>
        )
        : null}
      {isLine(draft.type)
        ? (
          <SwitchField
            label={t("parameters.meshed")}
            checked={draft.meshed}
            onChange={(v) => set({ meshed: v })}
            hint={t("hints.meshed")}
          />
        )
        : null}
    </div>
  );
}

function SwitchField({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  hint: string;
}) {
  return (
    <FormField label={label} hint={hint}>
      {(p) => (
        <div className="flex h-8 items-center">
          <Switch
            id={p.id}
            aria-describedby={p["aria-describedby"]}
            checked={checked}
            onCheckedChange={onChange}
          />
        </div>
      )}
    </FormField>
  );
}

/** Add or edit one feeder of a node. */
export function FeederDialog({
  feeder,
  open,
  onOpenChange,
  onSubmit,
}: {
  feeder?: Feeder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (input: FeederInput) => Promise<unknown>;
}) {
  const { t } = useTranslation("infrastructure");
  const text = useMessageText();
  const [draft, setDraft] = useState(() => feederDraft(feeder));
  const [touched, setTouched] = useState(false);
  const { busy, formError, serverFields, save } = useSave(() => onOpenChange(false));
  const input = feederInput(draft);
  const messages = feederMessages(input);
  const show = (field: string) =>
    text(
      (touched ? messages[field] : undefined) ??
        serverFields[field] ?? serverFields[`parameters.${field}`],
    );
  return (
    <FormDialog
      wide
      open={open}
      onOpenChange={onOpenChange}
      title={t(feeder ? "dialogs.edit.feeder" : "dialogs.create.feeder")}
      busy={busy}
      error={formError}
      onSubmit={() => {
        setTouched(true);
        if (Object.keys(messages).length) return;
        void save(() => onSubmit(input));
      }}
    >
      <FeederFields draft={draft} onChange={setDraft} show={show} />
    </FormDialog>
  );
}

// --- nodes

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
  onSubmit: (input: NodeInput, feeders: FeederInput[]) => Promise<unknown>;
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
  const feederInputs = drafts.map(feederInput);
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
