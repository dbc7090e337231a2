import { LogIn } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { MessagePanel } from "../../ui/message-panel.tsx";

/** Shown when the identity provider's answer could not be completed (stale or reused link). */
export function SignInFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation("common");
  return (
    <div className="flex min-h-screen bg-background">
      <MessagePanel
        tone="warning"
        icon={<LogIn />}
        title={t("auth.signInFailedTitle")}
        description={t("auth.signInFailedDescription")}
      >
        <Button onClick={onRetry}>{t("auth.signInAgain")}</Button>
      </MessagePanel>
    </div>
  );
}
