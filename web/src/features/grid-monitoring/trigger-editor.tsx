/**
 * The customer-wide automatic trigger of custom monitoring (spec 2.8, 5, 9): the absolute current
 * deltas for LV and MV (both required, 1 to 3000 A with 2 decimals, as the server checks), the
 * duration from the automatic list, and whether it is enabled.
 */
import { Save } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Select } from "../../ui/select.tsx";
import { Switch } from "../../ui/switch.tsx";
import { useDurationText } from "./custom-shared.ts";
import { AUTOMATIC_DURATIONS, type Trigger } from "./grid-types.ts";
import type { TriggerUpdateInput as TriggerUpdate } from "../../../../modules/monitoring/contract.ts";
import { DELTA_MAX_A, DELTA_MIN_A, deltaError } from "./logic.ts";
import { useLiveLoad } from "../../lib/use-live-load.ts";

const BASE = "/evm/custom-monitoring/triggers";

interface Form {
  lv: string;
  mv: string;
  duration: string;
  enabled: boolean;
}

const toForm = (t: Trigger | undefined): Form => ({
  lv: t ? String(t.delta_lv_a) : "",
  mv: t ? String(t.delta_mv_a) : "",
  duration: String(t?.duration_min ?? 10),
  enabled: t?.enabled ?? true,
});

export function TriggerEditor() {
  const { t } = useTranslation("grid-monitoring");
  const triggers = useLiveLoad<Trigger[]>(
    (signal) => api.get(BASE, { signal, handleErrors: true }),
    "triggers",
    null,
  );
  if (!triggers.data) {
    return triggers.error ? <LoadError onRetry={triggers.refresh} /> : <Loader />;
  }
  const list = triggers.data;
  const wide = list.find((tr) => tr.node_id === null && tr.enabled) ??
    list.find((tr) => tr.node_id === null);
  const nodeTriggers = list.filter((tr) => tr.node_id !== null && tr.enabled).length;
  return <Editor initial={wide} nodeTriggers={nodeTriggers} title={t("trigger.title")} />;
}

function Editor({
  initial,
  nodeTriggers,
  title,
}: {
  initial: Trigger | undefined;
  nodeTriggers: number;
  title: string;
}) {
  const { t } = useTranslation("grid-monitoring");
  const format = useFormatters();
  const errorText = useErrorText();
  const durationText = useDurationText();
  const [trigger, setTrigger] = useState(initial);
  const [form, setForm] = useState(() => toForm(initial));
  const [touched, setTouched] = useState(false);
  const [saved, setSaved] = useState(false);
  const saving = useAction((body: TriggerUpdate, id: string | null) =>
    id
      ? api.put<Trigger>(`${BASE}/${id}`, body, { handleErrors: true })
      : api.post<Trigger>(BASE, { node_id: null, ...body }, { handleErrors: true })
  );
  const lvError = deltaError(form.lv);
  const mvError = deltaError(form.mv);
  const message = (e: "required" | "range" | null) =>
    !touched || !e ? null : e === "required" ? t("trigger.required") : t("trigger.range", {
      min: format.number(DELTA_MIN_A, 0),
      max: format.number(DELTA_MAX_A, 0),
    });
  const dirty = JSON.stringify(form) !== JSON.stringify(toForm(trigger));

  async function save() {
    setTouched(true);
    setSaved(false);
    saving.reset();
    if (lvError || mvError) return;
    const next = await saving.run({
      delta_lv_a: Number(form.lv.trim().replace(",", ".")),
      delta_mv_a: Number(form.mv.trim().replace(",", ".")),
      duration_min: Number(form.duration),
      enabled: form.enabled,
    }, trigger?.id ?? null);
    if (!next) return;
    setTrigger(next);
    setForm(toForm(next));
    setSaved(true);
  }
  const failure = saving.error ? errorText(saving.error) : null;

  return (
    <section
      className="flex flex-col gap-3 rounded-lg border bg-surface p-4"
      data-testid="trigger-editor"
    >
      <h2 className="text-sm font-semibold">{title}</h2>
      <p className="text-xs text-muted-foreground">{t("trigger.description")}</p>
      {trigger ? null : <p className="text-xs text-muted-foreground">{t("trigger.none")}</p>}
      <form
        noValidate
        className="grid gap-3 sm:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {([["lv", "trigger.deltaLv", lvError], ["mv", "trigger.deltaMv", mvError]] as const).map((
          [key, label, error],
        ) => (
          <FormField key={key} label={t(label)} error={message(error)}>
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
                onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
              />
            )}
          </FormField>
        ))}
        <FormField label={t("trigger.duration")}>
          {(p) => (
            <Select
              {...p}
              value={form.duration}
              onValueChange={(duration) => setForm((f) => ({ ...f, duration }))}
              options={AUTOMATIC_DURATIONS.map((m) => ({
                value: String(m),
                label: durationText(m),
              }))}
            />
          )}
        </FormField>
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <Switch
            checked={form.enabled}
            onCheckedChange={(enabled) => setForm((f) => ({ ...f, enabled }))}
          />
          {t("trigger.enabled")}
        </label>
        <div className="flex justify-end">
          <Button type="submit" disabled={saving.busy || (!dirty && trigger !== undefined)}>
            <Save aria-hidden />
            {t("trigger.save")}
          </Button>
        </div>
      </form>
      {saved ? <Notice tone="ok">{t("trigger.saved")}</Notice> : null}
      {failure
        ? (
          <Notice tone="critical" code={failure.code}>
            {failure.text || t("trigger.saveFailed")}
          </Notice>
        )
        : null}
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
