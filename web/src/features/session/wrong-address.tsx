import { Globe } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { MessagePanel } from "../../ui/message-panel.tsx";

/**
 * Shown when the app is opened on another address than PUBLIC_URL (the server's IP address,
 * 127.0.0.1 instead of localhost): the sign-in would fail there, so it says where to go.
 */
export function WrongAddress({ publicUrl }: { publicUrl: string }) {
  const { t } = useTranslation("common");
  const target = `${publicUrl}${window.location.pathname}${window.location.search}`;
  return (
    <div className="flex min-h-screen bg-background">
      <MessagePanel
        tone="warning"
        icon={<Globe />}
        title={t("auth.wrongAddressTitle")}
        description={t("auth.wrongAddressDescription", {
          publicUrl,
          origin: window.location.origin,
        })}
      >
        <Button asChild>
          <a href={target}>{t("auth.wrongAddressOpen", { publicUrl })}</a>
        </Button>
        <p className="max-w-prose text-sm text-muted-foreground">{t("auth.wrongAddressAdmin")}</p>
      </MessagePanel>
    </div>
  );
}
