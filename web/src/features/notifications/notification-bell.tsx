import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { Bell, BellOff, CheckCheck, Info, OctagonAlert, Trash2, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { badgeText } from "../../lib/badge.ts";
import { hasNotificationsEnabled, notificationApps } from "../../lib/notification-settings.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { CountBadge } from "../../ui/count-badge.tsx";
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from "../../ui/popover.tsx";
import { type NotificationItem, notificationsAtom, unreadCountAtom } from "./notification-atoms.ts";

const SEVERITY_ICONS = {
  CRITICAL: { icon: OctagonAlert, className: "text-state-critical" },
  WARNING: { icon: TriangleAlert, className: "text-state-warning" },
  INFO: { icon: Info, className: "text-primary" },
} as const;

function NotificationRow({ item }: { item: NotificationItem }) {
  const { t, i18n } = useTranslation("notifications");
  const severity = SEVERITY_ICONS[item.severity] ?? SEVERITY_ICONS.INFO;
  const Icon = severity.icon;
  return (
    <li
      className={cn(
        "flex h-[50px] items-start gap-2 border-b px-3 py-1.5",
        !item.is_read && "bg-accent/40",
      )}
    >
      <Icon
        aria-label={t(`severity.${item.severity}`)}
        className={cn("mt-0.5 size-4 shrink-0", severity.className)}
      />
      <div className="min-w-0 flex-1">
        <p className={cn("truncate text-sm", !item.is_read && "font-medium")}>{item.name}</p>
        <p className="truncate text-xs text-muted-foreground">
          {t(`types.${item.type}`)} · {new Date(item.creation_time).toLocaleString(i18n.language)}
        </p>
      </div>
    </li>
  );
}

/**
 * The notification bell of spec 2.4 and 2.7: unread badge overflowing at 9 and a dropdown with
 * the list. Until live data is wired it shows 'No Notifications', or 'Notifications are not
 * activated' with a link to the settings when the user enabled none.
 */
export function NotificationBell() {
  const { t } = useTranslation("notifications");
  const { user, claims } = useSession();
  const notifications = useAtomValue(notificationsAtom);
  const unread = useAtomValue(unreadCountAtom);
  const badge = badgeText(unread);
  const enabled = hasNotificationsEnabled(
    notificationApps(user.user_metadata) ?? notificationApps(claims.userMetadata),
  );
  const empty = notifications.length === 0;

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="header"
          size="icon"
          className="relative"
          aria-label={badge ? t("labelWithCount", { count: unread }) : t("label")}
        >
          <Bell className="size-5!" />
          <CountBadge text={badge} />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="flex w-96 flex-col">
        <div className="flex items-center gap-2 border-b px-3 py-2">
          <h2 className="flex-1 text-sm font-semibold">{t("title")}</h2>
          <Button variant="ghost" size="sm" disabled={empty || unread === 0}>
            <CheckCheck aria-hidden />
            {t("markAllRead")}
          </Button>
          <Button variant="ghost" size="sm" disabled={empty}>
            <Trash2 aria-hidden />
            {t("deleteAll")}
          </Button>
        </div>
        {empty
          ? (
            <div className="flex flex-col items-center gap-2 px-4 py-8 text-center">
              {enabled
                ? (
                  <>
                    <Bell aria-hidden className="size-6 text-muted-foreground" />
                    <p className="text-sm text-muted-foreground">{t("empty")}</p>
                  </>
                )
                : (
                  <>
                    <BellOff aria-hidden className="size-6 text-muted-foreground" />
                    <p className="text-sm text-muted-foreground">{t("notActivated")}</p>
                    <PopoverClose asChild>
                      <Link
                        to="/user-settings"
                        hash="notification-settings"
                        className="text-sm text-primary underline-offset-4 hover:underline"
                      >
                        {t("openSettings")}
                      </Link>
                    </PopoverClose>
                  </>
                )}
            </div>
          )
          : (
            <ul className="max-h-[calc(100vh-180px)] overflow-y-auto" aria-label={t("title")}>
              {notifications.map((item) => <NotificationRow key={item.key} item={item} />)}
            </ul>
          )}
      </PopoverContent>
    </Popover>
  );
}
