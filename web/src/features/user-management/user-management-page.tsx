import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The user management screen: title and an honest placeholder until its issue delivers it. */
export function UserManagementPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("user-management.title")} subtitle={t("user-management.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("user-management.plannedScope")}
      />
    </Page>
  );
}
