import { Link } from "@tanstack/react-router";
import { BookOpen, KeyRound, Settings } from "lucide-react";
import { useTranslation } from "react-i18next";
import { isAdminOf } from "../../lib/access.ts";
import { MODULES } from "../../lib/modules.ts";
import { useAccessContext } from "../../lib/session-atoms.ts";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/**
 * /api-settings (spec 2.1, 2.5): where API clients admins land from the Global Settings icon.
 * API clients are not part of this installation yet, so the page says so and leads to what
 * exists: the REST API documentation and, for hes:cm admins, the Global Settings.
 */
export function ApiSettingsPage() {
  const { t } = useTranslation(["modules", "settings"]);
  const access = useAccessContext();
  const globalAdmin = isAdminOf(access.appsRoles, MODULES["global-settings"].access.key);
  return (
    <Page title={t("api-settings.title")} subtitle={t("api-settings.purpose")}>
      <EmptyState
        icon={<KeyRound />}
        title={t("settings:apiSettings.title")}
        description={t("settings:apiSettings.description")}
      >
        <Button asChild variant="secondary">
          <Link to="/api-doc">
            <BookOpen aria-hidden />
            {t("settings:apiSettings.openDocs")}
          </Link>
        </Button>
        {globalAdmin
          ? (
            <Button asChild variant="ghost">
              <Link to="/global-settings">
                <Settings aria-hidden />
                {t("settings:apiSettings.openGlobal")}
              </Link>
            </Button>
          )
          : null}
      </EmptyState>
    </Page>
  );
}
