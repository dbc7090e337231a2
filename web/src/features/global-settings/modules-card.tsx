import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { APPLICATIONS, DEFAULT_APPLICATIONS } from "../../lib/settings-rules.ts";
import { SettingsCard } from "./settings-card.tsx";
import type { SettingsForm } from "./settings-form.ts";

/** #apps-settings: which applications the customer has (changed by super-admins only). */
export function ModulesCard({
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
