/** The fields of one feeder, shared by the feeder dialog and the node dialog's first feeders. */
import { useTranslation } from "react-i18next";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Select } from "../../../ui/select.tsx";
import { Switch } from "../../../ui/switch.tsx";
import { type Feeder, FEEDER_DIRECTIONS, FEEDER_TYPES, type FeederType } from "./grid-api.ts";
import { FEEDER_FIELDS, type FeederForm, isLine, parseNumber, VECTOR_GROUPS } from "./rules.ts";

/** A feeder form's editable state (numbers as typed). */
export interface FeederDraft {
  name: string;
  type: FeederType;
  in_out: Feeder["in_out"];
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

/** The feeder form a draft holds (numbers parsed, the type's parameters only). */
export function feederForm(d: FeederDraft): FeederForm {
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
            onValueChange={(v) => set({ in_out: v as FeederDraft["in_out"] })}
            options={FEEDER_DIRECTIONS.map((v) => ({ value: v, label: t(`inOut.${v}`) }))}
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
