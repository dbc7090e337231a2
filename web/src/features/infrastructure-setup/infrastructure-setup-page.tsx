import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLocation } from "@tanstack/react-router";
import { bareHash, IO_CONFIGURATION_HASH } from "../../lib/access.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The infrastructure setup screen: title and an honest placeholder until its issue delivers it. */
export function InfrastructureSetupPage() {
  const { t } = useTranslation(["modules", "common"]);
  const ioConfiguration = bareHash(useLocation().hash) === IO_CONFIGURATION_HASH;
  return (
    <Page
      title={t("infrastructure-setup.title")}
      subtitle={ioConfiguration
        ? t("infrastructure-setup.sections.io-configuration")
        : t("infrastructure-setup.purpose")}
    >
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("infrastructure-setup.plannedScope")}
      />
    </Page>
  );
}
