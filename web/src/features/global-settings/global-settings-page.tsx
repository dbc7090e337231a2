import { useSetAtom } from "jotai";
import { Save, Undo2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { customerAtom, customersAtom, useSession } from "../../lib/session-atoms.ts";
import {
  countries,
  type FieldErrors,
  FREQUENCIES,
  LV_NOMINAL_VOLTAGES,
} from "../../lib/settings-rules.ts";
import type { CustomerDto as Customer } from "../../../../modules/customers/contract.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useUnsavedGuard } from "../../lib/use-unsaved-guard.ts";
import { Button } from "../../ui/button.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Toast } from "../../ui/toast.tsx";
import { InterfaceCard } from "./interface-card.tsx";
import { LogoCard } from "./logo-card.tsx";
import { ModulesCard } from "./modules-card.tsx";
import { SettingsCard } from "./settings-card.tsx";
import { useFieldKit } from "./settings-fields.tsx";
import {
  bodyFromForm,
  type CustomerSettings,
  formFromSettings,
  isDirty,
  serverFieldErrors,
  type SettingsForm,
  validateForm,
} from "./settings-form.ts";

/** Global Settings (spec 2.8): company, contact, logo, interface, grid, map and modules. */
export function GlobalSettingsPage() {
  const { customer } = useSession();
  const path = `/csm/customers/${encodeURIComponent(customer.key)}/settings`;
  const state = useAsync(
    (signal) => api.get<CustomerSettings>(path, { signal }),
    [path],
  );
  return (
    <AsyncState state={state} onRetry={state.reload}>
      {(settings) => <SettingsEditor key={settings.key} initial={settings} />}
    </AsyncState>
  );
}

function SettingsEditor({ initial }: { initial: CustomerSettings }) {
  const { t, i18n } = useTranslation(["settings", "modules", "common", "errors"]);
  const { user, claims, customer } = useSession();
  const errorText = useErrorText();
  const setCustomer = useSetAtom(customerAtom);
  const setCustomers = useSetAtom(customersAtom);
  const superAdmin = (user.role ?? claims.role) === "super-admin";
  const [saved, setSaved] = useState(initial);
  const savedForm = useMemo(() => formFromSettings(saved), [saved]);
  const [form, setForm] = useState<SettingsForm>(savedForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [toast, setToast] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const dirty = isDirty(form, savedForm);
  useUnsavedGuard(dirty);

  useEffect(() => {
    if (window.location.hash === "#apps-settings") {
      document.getElementById("apps-settings")?.scrollIntoView({ block: "start" });
    }
  }, []);

  const publish = useCallback((next: Partial<Customer> & { key: string }) => {
    const merge = (c: Customer) => (c.key === next.key ? { ...c, ...next } : c);
    setCustomer((c) => (c ? merge(c) : c));
    setCustomers((list) => list.map(merge));
  }, [setCustomer, setCustomers]);

  const kit = useFieldKit(form, setForm, errors, setErrors);
  const { message, text, select, toggle } = kit;

  const saving = useAction(async () => {
    try {
      const next = await api.put<CustomerSettings>(
        `/csm/customers/${encodeURIComponent(saved.key)}/settings`,
        bodyFromForm(form, superAdmin),
        { handleErrors: true },
      );
      setSaved(next);
      setForm(formFromSettings(next));
      publish(next);
      setToast({ tone: "success", text: t("saved") });
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      const fieldErrors = serverFieldErrors(body);
      setErrors(fieldErrors);
      setToast({
        tone: "error",
        text: Object.keys(fieldErrors).length || !body ? t("saveFailed") : errorText(error).text,
      });
    }
  });
  function save() {
    const found = validateForm(form);
    setErrors(found);
    if (Object.keys(found).length) {
      setToast({ tone: "error", text: t("saveFailed") });
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>("[aria-invalid=true]")?.focus()
      );
      return;
    }
    void saving.run();
  }

  const countryList = useMemo(() => countries(i18n.language), [i18n.language]);

  return (
    <Page
      title={t("modules:global-settings.title")}
      subtitle={t("subtitle", { name: saved.name || saved.auth_connection_name })}
      actions={
        <>
          {dirty
            ? <span className="text-xs text-state-warning">{t("unsaved")}</span>
            : saved.updated_at
            ? (
              <span className="text-xs text-muted-foreground">
                {t("lastChanged", {
                  when: formatDateTime(saved.updated_at, customer, i18n.language),
                })}
              </span>
            )
            : null}
          <Button
            variant="ghost"
            disabled={!dirty || saving.busy}
            onClick={() => {
              setForm(savedForm);
              setErrors({});
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
      <form
        className="grid items-start gap-4 xl:grid-cols-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <div className="flex min-w-0 flex-col gap-4">
          <SettingsCard id="company" title={t("sections.company")}>
            {text("name", t("fields.name"))}
            <div className="grid gap-3 sm:grid-cols-[2fr_1fr_2fr]">
              {text("street", t("fields.street"))}
              {text("postcode", t("fields.postcode"))}
              {text("city", t("fields.city"))}
            </div>
            {select(
              "country",
              t("fields.country"),
              countryList.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
            )}
          </SettingsCard>
          <SettingsCard
            id="contact"
            title={t("sections.contact")}
            description={t("sections.contactDescription")}
          >
            {text("technical_contact.name", t("fields.contactName"))}
            <div className="grid gap-3 sm:grid-cols-2">
              {text("technical_contact.email", t("fields.contactEmail"), { type: "email" })}
              {text("technical_contact.phone", t("fields.contactPhone"), {
                type: "tel",
                hint: t("hints.phone"),
              })}
            </div>
          </SettingsCard>
          <LogoCard
            customerKey={saved.key}
            etag={saved.logo_etag ?? null}
            info={saved.logo}
            onChanged={(etag, info) => {
              setSaved((s) => ({ ...s, logo_etag: etag, logo: info }));
              publish({ key: saved.key, logo_etag: etag });
            }}
          />
          <SettingsCard
            id="map"
            title={t("sections.map")}
            description={t("sections.mapDescription")}
          >
            <div className="grid gap-3 sm:grid-cols-3">
              {text("map_center.lat", t("fields.latitude"), { type: "number", hint: "-90 … 90" })}
              {text("map_center.lng", t("fields.longitude"), {
                type: "number",
                hint: "-180 … 180",
              })}
              {text("default_map_zoom_level", t("fields.zoom"), { type: "number", hint: "5 … 24" })}
            </div>
            {text("map_tiles.url", t("fields.tileUrl"), { hint: t("hints.tileUrl") })}
            {text("map_tiles.attribution", t("fields.tileAttribution"), {
              hint: t("hints.tileAttribution"),
            })}
          </SettingsCard>
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <InterfaceCard form={form} kit={kit} />
          <SettingsCard id="grid" title={t("sections.grid")}>
            <div className="grid gap-3 sm:grid-cols-3">
              {select(
                "default_frequency",
                t("fields.frequency"),
                FREQUENCIES.map((f) => ({ value: String(f), label: `${f} Hz` })),
              )}
              {select(
                "default_lv_nominal_voltage",
                t("fields.lvNominal"),
                LV_NOMINAL_VOLTAGES.map((v) => ({ value: v, label: `${v} V` })),
                t("hints.lvNominal"),
              )}
              {text("default_mv_nominal_voltage", t("fields.mvNominal"), {
                type: "number",
                hint: t("hints.mvNominal"),
              })}
            </div>
            <h3 className="pt-1 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
              {t("sections.thresholds")}
            </h3>
            <div className="grid gap-3 sm:grid-cols-3">
              {text("warning_thresholds.overvoltage_pct", t("fields.overvoltage"), {
                type: "number",
                hint: t("hints.voltageThreshold"),
              })}
              {text("warning_thresholds.undervoltage_pct", t("fields.undervoltage"), {
                type: "number",
                hint: t("hints.voltageThreshold"),
              })}
              {text("warning_thresholds.overcurrent_pct", t("fields.overcurrent"), {
                type: "number",
                hint: t("hints.overcurrent"),
              })}
            </div>
          </SettingsCard>
        </div>
        <div className="xl:col-span-2">
          <ModulesCard
            form={form}
            editable={superAdmin}
            error={message("applications")}
            onToggle={(app, on) => toggle("applications", app, on)}
          />
        </div>
        <button type="submit" hidden />
      </form>
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
