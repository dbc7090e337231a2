import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The events screen: title and an honest placeholder until its issue delivers it. */
export function EventsPage() {
  const { t } = useTranslation(["modules", "common"]);
  return (
    <Page title={t("power-quality.title")} subtitle={t("power-quality.sections.events")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("power-quality.sections.eventsPurpose")}
      />
    </Page>
  );
}
