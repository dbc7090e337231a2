import { Construction } from "lucide-react";
import { useSearch } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { voltageOf } from "../../lib/voltage.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The compare screen: title and an honest placeholder until its issue delivers it. */
export function ComparePage() {
  const { t } = useTranslation(["modules", "common"]);
  const voltage = voltageOf(useSearch({ strict: false }) as Record<string, unknown>);
  return (
    <Page title={t("visual-statistics.title")} subtitle={t("visual-statistics.sections.compare")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("visual-statistics.sections.comparePurpose")}
      >
        <p className="text-xs text-muted-foreground">
          {t("voltageShown", { level: t(`common:voltage.${voltage}`) })}
        </p>
      </EmptyState>
    </Page>
  );
}
