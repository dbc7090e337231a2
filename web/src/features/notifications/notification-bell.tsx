import { Link, useNavigate } from "@tanstack/react-router";
import { useAtom } from "jotai";
import {
  Bell,
  BellOff,
  CheckCheck,
  Info,
  OctagonAlert,
  RotateCw,
  Trash2,
  TriangleAlert,
  X,
} from "lucide-react";
import { type UIEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { badgeText } from "../../lib/badge.ts";
import { hasNotificationsEnabled, notificationApps } from "../../lib/notification-settings.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { CountBadge } from "../../ui/count-badge.tsx";
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from "../../ui/popover.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { Toast } from "../../ui/toast.tsx";
import {
  notificationCountsAtom,
  type NotificationItem,
  type NotificationPage,
  notificationsAtom,
} from "./notification-atoms.ts";
import {
  listHeight,
  mergeByKey,
  notificationTarget,
  notificationText,
  pageSize,
  relativeTime,
  ROW_HEIGHT,
} from "./notification-list.ts";
import { useLiveNotifications } from "./notification-live.ts";
import { useFormatters } from "../../lib/use-formatters.ts";

const SEVERITY_ICONS = {
  CRITICAL: { icon: OctagonAlert, className: "text-state-critical" },
  WARNING: { icon: TriangleAlert, className: "text-state-warning" },
  INFO: { icon: Info, className: "text-primary" },
} as const;

/** The largest page the server sends (docs/contracts.md). */
const MAX_PAGE = 100;

function NotificationRow({
  item,
  onOpen,
  onDelete,
}: {
  item: NotificationItem;
  onOpen: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation("notifications");
  const format = useFormatters();
  const severity = SEVERITY_ICONS[item.severity] ?? SEVERITY_ICONS.INFO;
  const Icon = severity.icon;
  const { key, values } = notificationText(item);
  const text = t(key, {
    ...values,
    ...(typeof values.type === "string" ? { type: t(`types.${values.type}`) } : {}),
    ...(typeof values.state === "string" && values.state
      ? { state: t(`states.${values.state}`, { defaultValue: values.state }) }
      : {}),
    ...(typeof values.status === "string" && values.status
      ? { status: t(`verdicts.${values.status}`, { defaultValue: values.status }) }
      : {}),
  });
  return (
    <li
      className={cn(
        "group relative flex items-stretch border-b last:border-b-0",
        !item.is_read && "bg-accent/40",
      )}
      style={{ minHeight: ROW_HEIGHT }}
      data-testid="notification"
    >
      <button
        type="button"
        onClick={onOpen}
        title={text}
        className="flex min-w-0 flex-1 items-start gap-2 px-3 py-1.5 text-left hover:bg-surface-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
        aria-label={item.is_read ? text : t("markReadLabel", { text })}
      >
        <Icon
          aria-label={t(`severity.${item.severity}`)}
          className={cn("mt-0.5 size-4 shrink-0", severity.className)}
        />
        <span className="min-w-0 flex-1">
          <span
            className={cn(
              "block text-sm break-words",
              !item.is_read && "font-medium",
            )}
          >
            {text}
          </span>
          <span className="block truncate text-xs text-muted-foreground">
            {t(`types.${item.type}`)} ·{" "}
            <time
              dateTime={item.creation_time}
              title={format.dateTime(item.creation_time)}
            >
              {relativeTime(item.creation_time, i18n.language)}
            </time>
          </span>
        </span>
        {item.is_read ? null : (
          <span
            aria-label={t("unread")}
            className="mt-1.5 size-2 shrink-0 rounded-full bg-primary"
          />
        )}
      </button>
      <Button
        variant="ghost"
        size="icon"
        className="my-auto mr-1 size-7 text-muted-foreground opacity-60 group-hover:opacity-100 focus-visible:opacity-100"
        aria-label={t("deleteOne", { text })}
        onClick={onDelete}
      >
        <X aria-hidden />
      </Button>
    </li>
  );
}

/**
 * The notification bell of spec 2.4 and 2.7: unread badge overflowing at 9, a dropdown with
 * 'Mark all as read' and 'Delete All', the list loaded in pages of (height / 50) + 1 rows while
 * scrolling, live updates over STOMP merged by key, and error toasts at the bottom left.
 */
export function NotificationBell() {
  const { t } = useTranslation("notifications");
  const { user, claims } = useSession();
  const userId = claims.userId;
  const [items, setItems] = useAtom(notificationsAtom);
  const [counts, setCounts] = useAtom(notificationCountsAtom);
  const [loading, setLoading] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const [height, setHeight] = useState(() => listHeight(window.innerHeight));
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const generation = useRef(0);
  const size = pageSize(height);
  const base = `/nsm/notifications/users/${encodeURIComponent(userId)}`;

  // Relative times ("5 minutes ago") move on while the page stays open.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    const onResize = () => setHeight(listHeight(window.innerHeight));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);

  /** Reloads from the first page, as many rows as are shown (at least one page). */
  const refresh = useCallback(async () => {
    const run = ++generation.current;
    setLoading(true);
    try {
      const rows = Math.min(MAX_PAGE, Math.max(size, itemsRef.current.length));
      const page = await api.get<NotificationPage>(base, {
        query: { page: 0, size: rows },
        handleErrors: true,
      });
      if (run !== generation.current) return;
      setItems(page.notifications);
      setCounts({ total: page.total, unread: page.unread });
      setLoadFailed(false);
    } catch {
      if (run === generation.current) setLoadFailed(true);
    } finally {
      if (run === generation.current) setLoading(false);
    }
  }, [base, size, setItems, setCounts]);

  /** Loads the next page while scrolling. */
  const loadMore = useCallback(async () => {
    const run = ++generation.current;
    setLoading(true);
    try {
      const page = await api.get<NotificationPage>(base, {
        query: { page: Math.floor(itemsRef.current.length / size), size },
        handleErrors: true,
      });
      if (run !== generation.current) return;
      setItems((list) => mergeByKey(list, page.notifications).list);
      setCounts({ total: page.total, unread: page.unread });
    } catch {
      if (run === generation.current) setLoadFailed(true);
    } finally {
      if (run === generation.current) setLoading(false);
    }
  }, [base, size, setItems, setCounts]);

  useEffect(() => {
    void refresh();
    // Only once per user: later refreshes follow actions, the dropdown and reconnects.
  }, [userId]);

  useLiveNotifications(
    userId,
    (incoming) => {
      const merged = mergeByKey(itemsRef.current, incoming);
      setItems(merged.list);
      setCounts((c) => ({
        total: c.total + merged.added,
        unread: Math.max(0, c.unread + merged.newlyUnread),
      }));
    },
    () => void refresh(),
  );

  /** Runs one action; a failure shows its toast; the list is refreshed either way (spec 4). */
  const act = async (request: () => Promise<unknown>, failure: "markFailed" | "deleteFailed") => {
    setBusy(true);
    try {
      await request();
    } catch {
      setToast(t(failure));
    } finally {
      setBusy(false);
    }
    await refresh();
  };

  const onScroll = (event: UIEvent<HTMLUListElement>) => {
    const el = event.currentTarget;
    const nearEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
    if (nearEnd && !loading && items.length < counts.total) void loadMore();
  };

  const unread = counts.unread;
  const badge = badgeText(unread);
  const enabled = hasNotificationsEnabled(
    notificationApps(user.user_metadata) ?? notificationApps(claims.userMetadata),
  );
  const empty = items.length === 0;

  return (
    <>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) void refresh();
        }}
      >
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
        <PopoverContent className="flex w-96 max-w-[calc(100vw-1rem)] flex-col">
          <div className="flex items-center gap-1 border-b px-3 py-2">
            <h2 className="flex-1 text-sm font-semibold">{t("title")}</h2>
            <Button
              variant="ghost"
              size="sm"
              disabled={busy || empty || unread === 0}
              onClick={() =>
                void act(
                  () => api.put(base, { is_read: true }, { handleErrors: true }),
                  "markFailed",
                )}
            >
              <CheckCheck aria-hidden />
              {t("markAllRead")}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              disabled={busy || empty}
              onClick={() =>
                void act(() => api.delete(base, { handleErrors: true }), "deleteFailed")}
            >
              <Trash2 aria-hidden />
              {t("deleteAll")}
            </Button>
          </div>
          {empty
            ? (
              <div className="flex flex-col items-center gap-2 px-4 py-8 text-center">
                {loading ? <Spinner label={t("loading")} /> : loadFailed
                  ? (
                    <>
                      <TriangleAlert aria-hidden className="size-6 text-state-warning" />
                      <p className="text-sm text-muted-foreground">{t("loadFailed")}</p>
                      <Button variant="secondary" size="sm" onClick={() => void refresh()}>
                        <RotateCw aria-hidden />
                        {t("retry")}
                      </Button>
                    </>
                  )
                  : enabled
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
              <ul
                className="overflow-y-auto"
                style={{ maxHeight: height }}
                aria-label={t("title")}
                aria-busy={loading}
                onScroll={onScroll}
              >
                {items.map((item) => (
                  <NotificationRow
                    key={item.key}
                    item={item}
                    onOpen={() => {
                      const target = notificationTarget(item);
                      if (target) {
                        setOpen(false);
                        void navigate(target);
                      }
                      if (item.is_read) return;
                      void act(
                        () =>
                          api.put(`/nsm/notifications/${encodeURIComponent(item.key)}`, {
                            is_read: true,
                          }, { handleErrors: true }),
                        "markFailed",
                      );
                    }}
                    onDelete={() =>
                      void act(
                        () =>
                          api.delete(`/nsm/notifications/${encodeURIComponent(item.key)}`, {
                            handleErrors: true,
                          }),
                        "deleteFailed",
                      )}
                  />
                ))}
                {loading && items.length < counts.total
                  ? (
                    <li className="flex justify-center py-2">
                      <Spinner className="size-4" label={t("loading")} />
                    </li>
                  )
                  : null}
              </ul>
            )}
        </PopoverContent>
      </Popover>
      <Toast
        open={toast !== null}
        onOpenChange={(open) => !open && setToast(null)}
        tone="error"
      >
        {toast}
      </Toast>
    </>
  );
}
