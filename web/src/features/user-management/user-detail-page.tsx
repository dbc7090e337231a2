import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "@tanstack/react-router";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** The user detail screen: title and an honest placeholder until its issue delivers it. */
export function UserDetailPage() {
  const { t } = useTranslation(["modules", "common"]);
  const { id } = useParams({ strict: false }) as { cid?: string; id?: string };
  return (
    <Page title={t("user-management.title")} subtitle={t("user-management.sections.detail")}>
      <EmptyState
        icon={<Construction />}
        title={t("notAvailable")}
        description={t("user-management.sections.detailPurpose")}
      >
        <p className="text-xs text-muted-foreground tabular">
          {t("user-management.userId", { id })}
        </p>
      </EmptyState>
    </Page>
  );
}
