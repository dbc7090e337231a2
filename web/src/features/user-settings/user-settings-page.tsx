import { getRouteApi } from "@tanstack/react-router";
import { MailCheck, MailWarning } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "../../ui/notice.tsx";
import { Page } from "../../ui/page.tsx";
import { Toast } from "../../ui/toast.tsx";
import { ModuleAccessCard } from "./module-access-card.tsx";
import { NotificationSettings } from "./notification-settings.tsx";
import { PasswordCard } from "./password-card.tsx";
import { ProfileCard } from "./profile-card.tsx";
import { Card } from "./settings-section.tsx";

const route = getRouteApi("/user-settings");

/**
 * My Profile & Settings: the user's own name, phone, language, start page and password, the
 * e-mail validation, module access, and the notification settings (#notification-settings).
 */
export function UserSettingsPage() {
  const { t } = useTranslation(["user-settings", "users", "modules", "common"]);
  const outcome = route.useSearch()["email-validation"];
  const [toast, setToast] = useState<{ text: string; tone: "success" | "error" } | null>(null);
  const notify = (text: string, tone: "success" | "error" = "success") => setToast({ text, tone });

  return (
    <Page title={t("title")} subtitle={t("subtitle")}>
      {outcome === "done"
        ? <Notice tone="ok" icon={<MailCheck aria-hidden />}>{t("emailValidation.done")}</Notice>
        : outcome === "invalid"
        ? (
          <Notice tone="warning" icon={<MailWarning aria-hidden />} role="status">
            {t("emailValidation.invalid")}
          </Notice>
        )
        : null}
      <div className="grid items-start gap-4 xl:grid-cols-2">
        <ProfileCard notify={notify} />
        <div className="grid content-start gap-4">
          <PasswordCard notify={notify} />
          <ModuleAccessCard />
        </div>
        <Card id="notification-settings" title={t("notifications.title")} className="xl:col-span-2">
          <NotificationSettings />
        </Card>
      </div>
      <Toast
        open={toast !== null}
        tone={toast?.tone ?? "success"}
        onOpenChange={(open) => !open && setToast(null)}
      >
        {toast?.text}
      </Toast>
    </Page>
  );
}
