import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The api doc screen: title and an honest placeholder until its issue delivers it. */
export function ApiDocPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("api-doc.title")} subtitle={t("api-doc.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("api-doc.plannedScope")}
      />
    </Page>
  );
}
