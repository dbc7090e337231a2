import { useSetAtom } from "jotai";
import { MailWarning } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import {
  channelsOf,
  notificationAppsFor,
  type NotificationSettingsValue,
  readNotificationSettings,
  withChannel,
} from "../../lib/notification-settings.ts";
import { currentUserAtom, useSession } from "../../lib/session-atoms.ts";
import type { CurrentUserDto as CurrentUser } from "../../../../modules/users/contract.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useAction } from "../../lib/use-action.ts";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Button } from "../../ui/button.tsx";
import { Switch } from "../../ui/switch.tsx";
import { Toast } from "../../ui/toast.tsx";

/** True when the user's e-mail address is validated (current-user DTO or user_metadata). */
function emailValidated(user: CurrentUser): boolean {
  const dto = user as CurrentUser & { email_validated?: unknown };
  return dto.email_validated === true || user.user_metadata.email_validated === true;
}

/** What is saved: e-mail flags stay off while the address is not validated (as the server asks). */
function toSave(draft: NotificationSettingsValue, validated: boolean): NotificationSettingsValue {
  if (validated) return draft;
  const apps = Object.fromEntries(
    Object.entries(draft.apps).map(([key, value]) => [
      key,
      typeof value === "object" ? { ...value, email: false } : value,
    ]),
  );
  return { apps, email: false };
}

/**
 * The notification settings of My Profile & Settings (spec 3, user_metadata.notification.apps):
 * per module the user holds, the notification centre and e-mail channels; e-mail only once the
 * e-mail address is validated. Saved through PATCH /usm/users/current/{id}.
 */
export function NotificationSettings() {
  const { t } = useTranslation(["notifications", "modules"]);
  const { user, claims, customer } = useSession();
  const setUser = useSetAtom(currentUserAtom);
  const errorText = useErrorText();
  const apps = notificationAppsFor(user.apps_roles ?? claims.appsRoles, customer.applications);
  const stored = useMemo(() => readNotificationSettings(user.user_metadata), [user.user_metadata]);
  const [draft, setDraft] = useState(stored);
  const [toast, setToast] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  useEffect(() => setDraft(stored), [stored]);
  const validated = emailValidated(user);
  const dirty = JSON.stringify(toSave(draft, validated)) !==
    JSON.stringify(toSave(stored, validated));
  const emailOn = validated && draft.email;

  const saving = useAction(async () => {
    try {
      const updated = await api.patch<CurrentUser>(
        `/usm/users/current/${encodeURIComponent(user.user_id)}`,
        { notification: toSave(draft, validated) },
        { handleErrors: true },
      );
      setUser(updated);
      setToast({ tone: "success", text: t("settings.saved") });
    } catch (error) {
      const { text } = errorText(error);
      setToast({ tone: "error", text: `${t("settings.saveFailed")} ${text}` });
    }
  });

  if (apps.length === 0) {
    return <p className="py-2 text-sm text-muted-foreground">{t("settings.noApps")}</p>;
  }

  return (
    <div className="flex flex-col gap-3 py-2">
      <p className="text-sm text-muted-foreground">{t("settings.intro")}</p>
      <div className="flex items-start gap-3 rounded-md border bg-surface-muted/40 px-3 py-2">
        <Switch
          id="notification-email-master"
          checked={emailOn}
          disabled={!validated}
          onCheckedChange={(on) => setDraft((d) => ({ ...d, email: on }))}
          className="mt-0.5"
        />
        <div className="min-w-0 flex-1">
          <label htmlFor="notification-email-master" className="text-sm font-medium">
            {t("settings.emailMaster")}
          </label>
          {validated
            ? (
              <p className="text-xs text-muted-foreground">
                {t("settings.emailMasterHint", { email: user.email })}
              </p>
            )
            : (
              <p className="flex items-center gap-1.5 text-xs text-state-warning">
                <MailWarning aria-hidden className="size-3.5 shrink-0" />
                {t("settings.emailNotValidated", { email: user.email })}
              </p>
            )}
        </div>
      </div>
      <Table>
        <TableHead>
          <Row>
            <HeadCell>{t("settings.module")}</HeadCell>
            <HeadCell className="w-36 text-center">{t("settings.web")}</HeadCell>
            <HeadCell className="w-24 text-center">{t("settings.email")}</HeadCell>
          </Row>
        </TableHead>
        <TableBody>
          {apps.map((app) => {
            const channels = channelsOf(draft, app.key);
            const module = t(`modules:${app.module}.title`);
            return (
              <Row key={app.key}>
                <th scope="row" className="py-2 text-left font-normal">{module}</th>
                <Cell className="py-2 text-center">
                  <Switch
                    checked={channels.web}
                    aria-label={t("settings.webFor", { module })}
                    onCheckedChange={(on) => setDraft((d) => withChannel(d, app.key, "web", on))}
                  />
                </Cell>
                <Cell className="py-2 text-center">
                  <Switch
                    checked={emailOn && channels.email}
                    disabled={!emailOn}
                    aria-label={t("settings.emailFor", { module })}
                    onCheckedChange={(on) => setDraft((d) => withChannel(d, app.key, "email", on))}
                  />
                </Cell>
              </Row>
            );
          })}
        </TableBody>
      </Table>
      <div className="flex items-center justify-end gap-3">
        {dirty
          ? <span className="text-xs text-muted-foreground">{t("settings.unsaved")}</span>
          : null}
        <Button onClick={() => void saving.run()} disabled={!dirty || saving.busy}>
          {t("settings.save")}
        </Button>
      </div>
      <Toast
        open={toast !== null}
        onOpenChange={(open) => !open && setToast(null)}
        tone={toast?.tone ?? "success"}
      >
        {toast?.text}
      </Toast>
    </div>
  );
}
