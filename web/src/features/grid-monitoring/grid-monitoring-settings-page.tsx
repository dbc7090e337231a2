import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The grid monitoring settings screen: title and an honest placeholder until its issue delivers it. */
export function GridMonitoringSettingsPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page
      title={t("grid-monitoring-settings.title")}
      subtitle={t("grid-monitoring-settings.purpose")}
    >
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("grid-monitoring-settings.plannedScope")}
      />
    </Page>
  );
}
