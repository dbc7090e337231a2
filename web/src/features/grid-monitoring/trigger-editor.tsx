/**
 * The customer-wide automatic trigger of custom monitoring (spec 2.8, 5, 9): the absolute current
 * deltas for LV and MV (both required, 1 to 3000 A with 2 decimals, as the server checks), the
 * duration from the automatic list, and whether it is enabled. The fields only: the settings
 * page saves them with its one Save button, and the badge says what is saved, not what is typed.
 */
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge } from "../../ui/badge.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { Switch } from "../../ui/switch.tsx";
import { useDurationText } from "./custom-shared.ts";
import { AUTOMATIC_DURATIONS, type Trigger } from "./grid-types.ts";
import type { TriggerUpdateInput as TriggerUpdate } from "../../../../modules/monitoring/contract.ts";
import { DELTA_MAX_A, DELTA_MIN_A, deltaError } from "./logic.ts";

const BASE = "/evm/custom-monitoring/triggers";

/** The trigger's fields as typed. */
export interface TriggerForm {
  lv: string;
  mv: string;
  duration: string;
  enabled: boolean;
}

/**
 * The form of a saved trigger; without one the fields are empty and the switch off, so nothing
 * reads "Enabled" before a trigger exists.
 */
export const triggerForm = (t: Trigger | undefined): TriggerForm => ({
  lv: t ? String(t.delta_lv_a) : "",
  mv: t ? String(t.delta_mv_a) : "",
  duration: String(t?.duration_min ?? 10),
  enabled: t?.enabled ?? false,
});

/** The customer-wide trigger of a list (an enabled one first) and the nodes with their own. */
export function wideTrigger(list: readonly Trigger[]): {
  trigger: Trigger | undefined;
  nodeTriggers: number;
} {
  return {
    trigger: list.find((tr) => tr.node_id === null && tr.enabled) ??
      list.find((tr) => tr.node_id === null),
    nodeTriggers: list.filter((tr) => tr.node_id !== null && tr.enabled).length,
  };
}

/** The errors of the deltas, or `null` when both are valid. */
export function triggerErrors(form: TriggerForm) {
  const lv = deltaError(form.lv);
  const mv = deltaError(form.mv);
  return lv || mv ? { lv, mv } : null;
}

/** Creates or updates the customer-wide trigger from a valid form. */
export function saveTrigger(form: TriggerForm, id: string | null): Promise<Trigger> {
  const body: TriggerUpdate = {
    delta_lv_a: Number(form.lv.trim().replace(",", ".")),
    delta_mv_a: Number(form.mv.trim().replace(",", ".")),
    duration_min: Number(form.duration),
    enabled: form.enabled,
  };
  return id
    ? api.put<Trigger>(`${BASE}/${id}`, body, { handleErrors: true })
    : api.post<Trigger>(BASE, { node_id: null, ...body }, { handleErrors: true });
}

/** Loads the triggers of the customer. */
export function loadTriggers(signal: AbortSignal): Promise<Trigger[]> {
  return api.get<Trigger[]>(BASE, { signal, handleErrors: true });
}

export function TriggerFields({
  saved,
  nodeTriggers,
  form,
  onChange,
  showErrors,
}: {
  /** The trigger as stored (undefined: none yet). */
  saved: Trigger | undefined;
  nodeTriggers: number;
  form: TriggerForm;
  onChange: (form: TriggerForm) => void;
  /** After a save attempt: the deltas' errors show. */
  showErrors: boolean;
}) {
  const { t } = useTranslation("grid-monitoring");
  const format = useFormatters();
  const durationText = useDurationText();
  const message = (e: "required" | "range" | null) =>
    !showErrors || !e ? null : e === "required" ? t("trigger.required") : t("trigger.range", {
      min: format.number(DELTA_MIN_A, 0),
      max: format.number(DELTA_MAX_A, 0),
    });
  const status = saved ? (saved.enabled ? "enabled" : "disabled") : "none";

  return (
    <section
      className="flex flex-col gap-3 rounded-lg border bg-surface p-4"
      data-testid="trigger-editor"
      aria-labelledby="trigger-title"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="trigger-title" className="text-sm font-semibold">{t("trigger.title")}</h2>
        <Badge
          tone={status === "enabled" ? "ok" : "neutral"}
          data-testid="trigger-status"
        >
          {t(`trigger.status.${status}`)}
        </Badge>
      </div>
      <p className="text-xs text-muted-foreground">{t("trigger.description")}</p>
      {saved ? null : <p className="text-xs text-muted-foreground">{t("trigger.none")}</p>}
      <div className="grid gap-3 sm:grid-cols-3">
        {([["lv", "trigger.deltaLv"], ["mv", "trigger.deltaMv"]] as const).map(([key, label]) => (
          <FormField key={key} label={t(label)} error={message(deltaError(form[key]))}>
            {(p) => (
              <Input
                {...p}
                required
                type="number"
                inputMode="decimal"
                min={DELTA_MIN_A}
                max={DELTA_MAX_A}
                step="0.01"
                value={form[key]}
                onChange={(e) => onChange({ ...form, [key]: e.target.value })}
              />
            )}
          </FormField>
        ))}
        <FormField label={t("trigger.duration")}>
          {(p) => (
            <Select
              {...p}
              value={form.duration}
              onValueChange={(duration) => onChange({ ...form, duration })}
              options={AUTOMATIC_DURATIONS.map((m) => ({
                value: String(m),
                label: durationText(m),
              }))}
            />
          )}
        </FormField>
        <label className="flex items-center gap-2 text-sm sm:col-span-3">
          <Switch
            checked={form.enabled}
            onCheckedChange={(enabled) => onChange({ ...form, enabled })}
          />
          {t("trigger.enabled")}
        </label>
      </div>
      {nodeTriggers
        ? (
          <p className="text-xs text-muted-foreground">
            {t("trigger.nodeTriggers", { count: nodeTriggers })}
          </p>
        )
        : null}
    </section>
  );
}
