import { useSetAtom } from "jotai";
import { Save, Undo2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import { serverErrors } from "../../lib/field-errors.ts";
import { useAction } from "../../lib/use-action.ts";
import { formatNumber } from "../../lib/format.ts";
import { customerAtom, customersAtom, useSession } from "../../lib/session-atoms.ts";
import {
  checkThresholds,
  type FieldErrors,
  type ThresholdsForm,
} from "../../lib/settings-rules.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useUnsavedGuard } from "../../lib/use-unsaved-guard.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Toast } from "../../ui/toast.tsx";
import type { Trigger } from "./grid-types.ts";
import {
  loadTriggers,
  saveTrigger,
  triggerErrors,
  TriggerFields,
  triggerForm,
  wideTrigger,
} from "./trigger-editor.tsx";
import type { GridMonitoringSettingsDto } from "../../../../modules/customers/contract.ts";

/** What `GET /csm/customers/{cid}/grid-monitoring-settings` answers. */
type GridMonitoringSettings = GridMonitoringSettingsDto;

const FIELDS = ["overvoltage_pct", "undervoltage_pct", "overcurrent_pct"] as const;

const toForm = (s: GridMonitoringSettings): ThresholdsForm => ({
  overvoltage_pct: String(s.warning_thresholds.overvoltage_pct),
  undervoltage_pct: String(s.warning_thresholds.undervoltage_pct),
  overcurrent_pct: String(s.warning_thresholds.overcurrent_pct),
});

/**
 * /grid-monitoring-settings: the warning thresholds and the automatic custom monitoring trigger,
 * for grid monitoring admins, saved together with one Save button.
 */
export function GridMonitoringSettingsPage() {
  const { customer } = useSession();
  const path = `/csm/customers/${encodeURIComponent(customer.key)}/grid-monitoring-settings`;
  const state = useAsync(
    async (signal) => ({
      settings: await api.get<GridMonitoringSettings>(path, { signal }),
      triggers: await loadTriggers(signal),
    }),
    [path],
  );
  return (
    <AsyncState state={state} onRetry={state.reload}>
      {({ settings, triggers }) => (
        <SettingsEditor path={path} initial={settings} triggers={triggers} />
      )}
    </AsyncState>
  );
}

function SettingsEditor(
  { path, initial, triggers }: {
    path: string;
    initial: GridMonitoringSettings;
    triggers: Trigger[];
  },
) {
  const { t } = useTranslation(["settings", "modules", "errors"]);
  const { customer } = useSession();
  const setCustomer = useSetAtom(customerAtom);
  const setCustomers = useSetAtom(customersAtom);
  const [saved, setSaved] = useState(initial);
  const [form, setForm] = useState(() => toForm(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const wide = wideTrigger(triggers);
  const [trigger, setTrigger] = useState(wide.trigger);
  const [trigForm, setTrigForm] = useState(() => triggerForm(wide.trigger));
  const [tried, setTried] = useState(false);
  const [toast, setToast] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const thresholdsDirty = JSON.stringify(form) !== JSON.stringify(toForm(saved));
  const triggerDirty = JSON.stringify(trigForm) !== JSON.stringify(triggerForm(trigger));
  const dirty = thresholdsDirty || triggerDirty;
  useUnsavedGuard(dirty);

  const errorText = useErrorText();
  const saving = useAction(async () => {
    try {
      if (thresholdsDirty) {
        const body = {
          warning_thresholds: Object.fromEntries(
            FIELDS.map((f) => [f, Number(form[f].trim().replace(",", "."))]),
          ),
        };
        const next = await api.put<GridMonitoringSettings>(path, body, { handleErrors: true });
        setSaved(next);
        setForm(toForm(next));
        const merge = <C extends { key: string }>(c: C) =>
          c.key === customer.key ? { ...c, warning_thresholds: next.warning_thresholds } : c;
        setCustomer((c) => (c ? merge(c) : c));
        setCustomers((list) => list.map(merge));
      }
      if (triggerDirty) {
        const next = await saveTrigger(trigForm, trigger?.id ?? null);
        setTrigger(next);
        setTrigForm(triggerForm(next));
      }
      setTried(false);
      setToast({ tone: "success", text: t("saved") });
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      setErrors(serverErrors(body, { field: (path) => path }).fields as FieldErrors);
      const failure = errorText(error);
      setToast({
        tone: "error",
        text: failure.code === undefined
          ? t("logo.saveFailed")
          : `${failure.text} (${failure.code})`,
      });
    }
  });
  function save() {
    const found = checkThresholds(form);
    setErrors(found);
    setTried(true);
    if (Object.keys(found).length) return;
    if (triggerDirty && triggerErrors(trigForm)) return;
    void saving.run();
  }

  const nominal = Number.parseFloat(saved.default_lv_nominal_voltage?.split("/")[0] ?? "");
  const pct = (f: (typeof FIELDS)[number]) => Number(form[f].replace(",", "."));
  const volts = (factor: number) => formatNumber(nominal * factor, customer);
  const message = (f: string) => {
    const e = errors[f];
    return e ? t(`errors:${e.key}`, e.params ?? {}) : null;
  };

  return (
    <Page
      title={t("modules:grid-monitoring-settings.title")}
      subtitle={t("gridMonitoring.description")}
      actions={
        <>
          {dirty ? <span className="text-xs text-state-warning">{t("unsaved")}</span> : null}
          <Button
            variant="ghost"
            disabled={!dirty || saving.busy}
            onClick={() => {
              setForm(toForm(saved));
              setTrigForm(triggerForm(trigger));
              setErrors({});
              setTried(false);
            }}
          >
            <Undo2 aria-hidden />
            {t("discard")}
          </Button>
          <Button disabled={!dirty || saving.busy} onClick={save}>
            <Save aria-hidden />
            {saving.busy ? t("saving") : t("save")}
          </Button>
        </>
      }
    >
      <div className="grid max-w-5xl gap-4 lg:grid-cols-2">
        <section className="flex flex-col gap-3 rounded-lg border bg-surface p-4">
          <h2 className="text-sm font-semibold">{t("sections.thresholds")}</h2>
          <form
            noValidate
            className="grid gap-3 sm:grid-cols-3"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            {FIELDS.map((f) => (
              <FormField
                key={f}
                label={t(`fields.${f.replace("_pct", "")}`)}
                error={message(`warning_thresholds.${f}`)}
              >
                {(p) => (
                  <Input
                    {...p}
                    type="number"
                    inputMode="decimal"
                    step="0.01"
                    value={form[f]}
                    onChange={(e) => {
                      setForm((old) => ({ ...old, [f]: e.target.value }));
                      setErrors(({ [`warning_thresholds.${f}`]: _, ...rest }) => rest);
                    }}
                  />
                )}
              </FormField>
            ))}
            <button type="submit" hidden />
          </form>
          <p className="text-xs text-muted-foreground">
            {Number.isFinite(nominal)
              ? t("gridMonitoring.voltageRange", {
                nominal: formatNumber(nominal, customer, 0),
                low: volts(1 - pct("undervoltage_pct") / 100),
                high: volts(1 + pct("overvoltage_pct") / 100),
              })
              : t("gridMonitoring.noNominal")}
          </p>
          <p className="text-xs text-muted-foreground">
            {t("gridMonitoring.currentRule", { pct: form.overcurrent_pct || "–" })}
          </p>
        </section>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <TriggerFields
            saved={trigger}
            nodeTriggers={wide.nodeTriggers}
            form={trigForm}
            onChange={setTrigForm}
            showErrors={tried && triggerDirty}
          />
          <button type="submit" hidden />
        </form>
      </div>
      <Toast
        open={toast !== null}
        onOpenChange={(open) => !open && setToast(null)}
        tone={toast?.tone ?? "success"}
      >
        {toast?.text}
      </Toast>
    </Page>
  );
}
