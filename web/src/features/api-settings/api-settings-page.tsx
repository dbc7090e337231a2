import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The api settings screen: title and an honest placeholder until its issue delivers it. */
export function ApiSettingsPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("api-settings.title")} subtitle={t("api-settings.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("api-settings.plannedScope")}
      />
    </Page>
  );
}
