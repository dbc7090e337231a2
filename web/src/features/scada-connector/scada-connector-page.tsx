import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The scada connector screen: title and an honest placeholder until its issue delivers it. */
export function ScadaConnectorPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("scada-connector.title")} subtitle={t("scada-connector.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("scada-connector.plannedScope")}
      />
    </Page>
  );
}
