import { Construction } from "lucide-react";
import { useSearch } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { voltageOf } from "../../lib/voltage.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The metering information screen: title and an honest placeholder until its issue delivers it. */
export function MeteringInformationPage() {
  const { t } = useTranslation(["modules", "common"]);
  const voltage = voltageOf(useSearch({ strict: false }) as Record<string, unknown>);
  return (
    <Page title={t("metering-information.title")} subtitle={t("metering-information.purpose")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("metering-information.plannedScope")}
      >
        <p className="text-xs text-muted-foreground">
          {t("voltageShown", { level: t(`common:voltage.${voltage}`) })}
        </p>
      </EmptyState>
    </Page>
  );
}
