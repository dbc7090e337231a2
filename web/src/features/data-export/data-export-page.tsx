import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The data export screen: title and an honest placeholder until its issue delivers it. */
export function DataExportPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("data-export.title")} subtitle={t("data-export.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("data-export.plannedScope")}
      />
    </Page>
  );
}
