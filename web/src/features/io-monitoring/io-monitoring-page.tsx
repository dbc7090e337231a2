import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The io monitoring screen: title and an honest placeholder until its issue delivers it. */
export function IoMonitoringPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("io-monitoring.title")} subtitle={t("io-monitoring.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("io-monitoring.plannedScope")}
      />
    </Page>
  );
}
