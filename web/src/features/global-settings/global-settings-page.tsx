import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The global settings screen: title and an honest placeholder until its issue delivers it. */
export function GlobalSettingsPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("global-settings.title")} subtitle={t("global-settings.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("global-settings.plannedScope")}
      />
    </Page>
  );
}
