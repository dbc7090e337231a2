import { useSetAtom } from "jotai";
import { Save, Undo2 } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import {
  DATE_FORMATS,
  formatDate,
  formatDateTime,
  formatNumber,
  formatTime,
  NUMBER_FORMATS,
  TIME_FORMATS,
} from "../../lib/format.ts";
import { customerAtom, customersAtom, useSession } from "../../lib/session-atoms.ts";
import {
  APPLICATIONS,
  countries,
  DEFAULT_APPLICATIONS,
  type FieldErrors,
  FREQUENCIES,
  LANGUAGES,
  LV_NOMINAL_VOLTAGES,
  timeZones,
} from "../../lib/settings-rules.ts";
import type { CustomerDto as Customer } from "../../../../modules/customers/contract.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useUnsavedGuard } from "../../lib/use-unsaved-guard.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select, Textarea } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Toast } from "../../ui/toast.tsx";
import { LogoCard } from "./logo-card.tsx";
import { SettingsCard } from "./settings-card.tsx";
import {
  bodyFromForm,
  type CustomerSettings,
  formFromSettings,
  isDirty,
  serverFieldErrors,
  type SettingsForm,
  type TextField,
  validateForm,
} from "./settings-form.ts";

const EXAMPLE_INSTANT = "2026-03-14T15:09:26Z";

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
  const [saving, setSaving] = useState(false);
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

  const setText = (name: TextField, value: string) => {
    setForm((f) => ({ ...f, text: { ...f.text, [name]: value } }));
    setErrors(({ [name]: _, ...rest }) => rest);
  };
  const toggle = (list: "available_languages" | "applications", value: string, on: boolean) => {
    setForm((f) => ({
      ...f,
      [list]: on ? [...f[list], value] : f[list].filter((v) => v !== value),
    }));
    setErrors(({ [list]: _, default_language: __, ...rest }) => rest);
  };
  const message = (name: string) => {
    const e = errors[name];
    return e ? t(`errors:${e.key}`, e.params ?? {}) : null;
  };

  async function save() {
    const found = validateForm(form);
    setErrors(found);
    if (Object.keys(found).length) {
      setToast({ tone: "error", text: t("saveFailed") });
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>("[aria-invalid=true]")?.focus()
      );
      return;
    }
    setSaving(true);
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
    } finally {
      setSaving(false);
    }
  }

  const text = (name: TextField, label: string, options: { hint?: string; type?: string } = {}) => (
    <FormField label={label} hint={options.hint} error={message(name)}>
      {(p) => (
        <Input
          {...p}
          type={options.type ?? "text"}
          inputMode={options.type === "number" ? "decimal" : undefined}
          value={form.text[name]}
          onChange={(e) => setText(name, e.target.value)}
        />
      )}
    </FormField>
  );
  const select = (
    name: TextField,
    label: string,
    items: readonly { value: string; label: string }[],
    hint?: string,
  ) => (
    <FormField label={label} hint={hint} error={message(name)}>
      {(p) => (
        <Select
          {...p}
          value={form.text[name]}
          onChange={(e) => setText(name, e.target.value)}
        >
          {form.text[name] === "" ? <option value="">{t("choose")}</option> : null}
          {items.map((i) => <option key={i.value} value={i.value}>{i.label}</option>)}
        </Select>
      )}
    </FormField>
  );
  const countryList = useMemo(() => countries(i18n.language), [i18n.language]);
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);
  const preview = {
    default_date_format: form.text.default_date_format,
    default_time_format: form.text.default_time_format,
    default_number_format: form.text.default_number_format,
    default_timezone: form.text.default_timezone,
  };

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
            disabled={!dirty || saving}
            onClick={() => {
              setForm(savedForm);
              setErrors({});
            }}
          >
            <Undo2 aria-hidden />
            {t("discard")}
          </Button>
          <Button disabled={!dirty || saving} onClick={() => void save()}>
            <Save aria-hidden />
            {saving ? t("saving") : t("save")}
          </Button>
        </>
      }
    >
      <form
        className="grid items-start gap-4 xl:grid-cols-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
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
          </SettingsCard>
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <SettingsCard id="interface" title={t("sections.interface")}>
            <div className="grid gap-3 sm:grid-cols-3">
              {select(
                "default_date_format",
                t("fields.dateFormat"),
                DATE_FORMATS.map((f) => ({ value: f, label: f })),
              )}
              {select(
                "default_time_format",
                t("fields.timeFormat"),
                TIME_FORMATS.map((f) => ({ value: f, label: f })),
              )}
              {select(
                "default_number_format",
                t("fields.numberFormat"),
                NUMBER_FORMATS.map((f) => ({ value: f, label: f })),
              )}
            </div>
            <p
              className="rounded-md bg-surface-muted px-3 py-1.5 text-xs text-muted-foreground"
              aria-live="polite"
            >
              {t("formatExample", {
                date: formatDate(EXAMPLE_INSTANT, preview, i18n.language),
                time: formatTime(EXAMPLE_INSTANT, preview),
                number: formatNumber(1234567.891, preview),
              })}
            </p>
            {select("default_timezone", t("fields.timezone"), zones)}
            <fieldset className="flex flex-col gap-1">
              <legend className="text-xs font-medium text-muted-foreground">
                {t("fields.availableLanguages")}
              </legend>
              <div className="flex flex-wrap gap-4 pt-1">
                {LANGUAGES.map((lang) => (
                  <label key={lang} className="flex items-center gap-1.5 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      checked={form.available_languages.includes(lang)}
                      onChange={(e) =>
                        toggle("available_languages", lang, e.target.checked)}
                    />
                    {t(`common:languages.${lang}`)}
                  </label>
                ))}
              </div>
              {message("available_languages")
                ? (
                  <p role="alert" className="text-xs text-state-critical">
                    {message("available_languages")}
                  </p>
                )
                : null}
            </fieldset>
            {select(
              "default_language",
              t("fields.defaultLanguage"),
              LANGUAGES.map((l) => ({ value: l, label: t(`common:languages.${l}`) })),
            )}
            <FormField
              label={t("fields.authorizedDomains")}
              hint={t("hints.authorizedDomains")}
              error={message("authorized_email_domains")}
            >
              {(p) => (
                <Textarea
                  {...p}
                  rows={3}
                  value={form.text.authorized_email_domains}
                  onChange={(e) => setText("authorized_email_domains", e.target.value)}
                />
              )}
            </FormField>
          </SettingsCard>
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

/** #apps-settings: which applications the customer has (changed by super-admins only). */
function ModulesCard({
  form,
  editable,
  error,
  onToggle,
}: {
  form: SettingsForm;
  editable: boolean;
  error: string | null;
  onToggle: (app: string, on: boolean) => void;
}): ReactNode {
  const { t } = useTranslation(["settings"]);
  return (
    <SettingsCard
      id="apps-settings"
      title={t("sections.modules")}
      description={editable ? t("sections.modulesSuperAdmin") : t("sections.modulesReadOnly")}
    >
      <ul className="grid gap-1.5 sm:grid-cols-2 lg:grid-cols-3">
        {APPLICATIONS.map((app) => {
          const fixed = (DEFAULT_APPLICATIONS as readonly string[]).includes(app);
          return (
            <li key={app}>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={form.applications.includes(app)}
                  disabled={!editable || fixed}
                  onChange={(e) => onToggle(app, e.target.checked)}
                />
                <span>{t(`applications.${app.replace(":", "_")}`)}</span>
                {fixed
                  ? <span className="text-xs text-muted-foreground">{t("alwaysOn")}</span>
                  : null}
              </label>
            </li>
          );
        })}
      </ul>
      {error ? <p role="alert" className="text-xs text-state-critical">{error}</p> : null}
    </SettingsCard>
  );
}
