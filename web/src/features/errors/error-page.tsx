import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { MessagePanel } from "../../ui/message-panel.tsx";

/**
 * The common frame of the 403, 404, 500 and 503 pages. The start-page link is a plain link to
 * `/`: a full load re-runs sign-in and the start-page redirect, which also clears a bad state.
 */
export function ErrorPage({
  status,
  icon,
  title,
  description,
  tone = "warning",
  actions,
}: {
  status: number;
  icon: ReactNode;
  title: string;
  description: string;
  tone?: "warning" | "critical";
  actions?: ReactNode;
}) {
  const { t } = useTranslation("common");
  return (
    <MessagePanel
      tone={tone}
      icon={icon}
      eyebrow={t("errorPages.status", { status })}
      title={title}
      description={description}
    >
      {actions}
      <Button asChild variant={actions ? "secondary" : "primary"}>
        <a href="/">{t("errorPages.backToStart")}</a>
      </Button>
    </MessagePanel>
  );
}
