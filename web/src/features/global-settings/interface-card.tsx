/** The interface card of the global settings: formats with a live example, time zone, languages, domains. */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  DATE_FORMATS,
  formatDate,
  formatNumber,
  formatTime,
  NUMBER_FORMATS,
  TIME_FORMATS,
} from "../../lib/format.ts";
import { LANGUAGES, timeZones } from "../../lib/settings-rules.ts";
import { FormField } from "../../ui/form-field.tsx";
import { Textarea } from "../../ui/input.tsx";
import { SettingsCard } from "./settings-card.tsx";
import type { FieldKit } from "./settings-fields.tsx";
import type { SettingsForm } from "./settings-form.ts";

const EXAMPLE_INSTANT = "2026-03-14T15:09:26Z";

export function InterfaceCard({ form, kit }: { form: SettingsForm; kit: FieldKit }) {
  const { t, i18n } = useTranslation(["settings", "common"]);
  const { select, message, setText, toggle } = kit;
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);
  const preview = {
    default_date_format: form.text.default_date_format,
    default_time_format: form.text.default_time_format,
    default_number_format: form.text.default_number_format,
    default_timezone: form.text.default_timezone,
  };
  return (
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
                onChange={(e) => toggle("available_languages", lang, e.target.checked)}
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
  );
}
