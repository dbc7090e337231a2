import { CircleCheck, CircleMinus, Info } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { denialReason } from "../../lib/access.ts";
import { type ModuleId, MODULES } from "../../lib/modules.ts";
import { hasNotificationsEnabled, notificationApps } from "../../lib/notification-settings.ts";
import { useAccessContext, useSession } from "../../lib/session-atoms.ts";
import { Page } from "../../ui/page.tsx";

const LISTED: readonly ModuleId[] = [
  "data-export",
  "infrastructure-setup",
  "scada-connector",
  "user-management",
  "global-settings",
  "api-settings",
  "metering-information",
  "grid-monitoring",
  "visual-statistics",
  "power-quality",
  "io-monitoring",
  "api-doc",
];

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[11rem_1fr] gap-3 border-b py-2 last:border-b-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

function Card({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="scroll-mt-16 rounded-lg border bg-surface">
      <h2 className="border-b px-4 py-2.5 text-sm font-semibold">{title}</h2>
      <div className="px-4 py-2">{children}</div>
    </section>
  );
}

/** The module's role held by the user (last segment of the apps_roles entry), if any. */
function roleFor(appsRoles: readonly string[], key: string): string | null {
  const entry = appsRoles.find((e) => e.startsWith(`${key}:`));
  return entry ? (entry.split(":").pop() ?? null) : null;
}

/**
 * My Profile & Settings, read-only for now: the profile, module access and the state of the
 * notification settings (anchor #notification-settings). Editing arrives with its issue.
 */
export function UserSettingsPage() {
  const { t, i18n } = useTranslation(["user-settings", "modules", "common"]);
  const { user, claims, customer, config } = useSession();
  const access = useAccessContext();
  const notSet = <span className="text-muted-foreground">{t("notSet")}</span>;
  const startPage = user.start_page ?? claims.startPage;
  const notificationsOn = hasNotificationsEnabled(
    notificationApps(user.user_metadata) ?? notificationApps(claims.userMetadata),
  );
  const latestLogin = user.latest_login
    ? new Date(user.latest_login).toLocaleString(i18n.language, {
      timeZone: customer.default_timezone,
    })
    : null;
  const modules = LISTED.filter(
    (id) =>
      !MODULES[id].access.requiresCustomerApplication ||
      customer.applications.includes(MODULES[id].access.key),
  );

  return (
    <Page title={t("title")} subtitle={t("subtitle")}>
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Info aria-hidden className="size-4" />
        {t("readOnlyNotice")}
      </p>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card title={t("profile")}>
          <dl>
            <Field label={t("fields.name")}>{user.name || notSet}</Field>
            <Field label={t("fields.email")}>{user.email || notSet}</Field>
            <Field label={t("fields.phone")}>{user.phone || notSet}</Field>
            <Field label={t("fields.role")}>{t(`roles.${user.role ?? claims.role}`)}</Field>
            <Field label={t("fields.language")}>
              {t(`common:languages.${user.language}`, { defaultValue: user.language || "-" })}
            </Field>
            <Field label={t("fields.startPage")}>
              {startPage ?? t("defaultStartPage", { path: config.defaultStartPage })}
            </Field>
            <Field label={t("fields.latestLogin")}>{latestLogin ?? notSet}</Field>
          </dl>
        </Card>
        <Card title={t("moduleAccess")}>
          <ul className="divide-y">
            {modules.map((id) => {
              const denial = denialReason(MODULES[id].access, access);
              const role = roleFor(access.appsRoles, MODULES[id].access.key);
              return (
                <li key={id} className="flex items-center gap-2 py-1.5 text-sm">
                  {denial === null
                    ? <CircleCheck aria-hidden className="size-4 text-state-ok" />
                    : <CircleMinus aria-hidden className="size-4 text-state-offline" />}
                  <span className="flex-1">{t(`modules:${id}.title`)}</span>
                  <span className="text-xs text-muted-foreground">
                    {denial === null
                      ? role
                        ? t("access.grantedWithRole", {
                          role: t(`roles.${role}`, { defaultValue: role }),
                        })
                        : t("access.granted")
                      : t(`access.${denial}`)}
                  </span>
                </li>
              );
            })}
          </ul>
        </Card>
        <Card id="notification-settings" title={t("notifications.title")}>
          <p className="py-2 text-sm">
            {notificationsOn ? t("notifications.enabled") : t("notifications.disabled")}
          </p>
          <p className="pb-2 text-xs text-muted-foreground">{t("notifications.editingLater")}</p>
        </Card>
      </div>
    </Page>
  );
}
