import { Outlet, useLocation, useNavigate } from "@tanstack/react-router";
import { useAtomValue, useSetAtom } from "jotai";
import { Fragment, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ForbiddenPage } from "../features/errors/forbidden-page.tsx";
import { NotificationBell } from "../features/notifications/notification-bell.tsx";
import { SessionExpiringDialog } from "../features/session/session-expiring-dialog.tsx";
import { SuperRoleWarningDialog } from "../features/session/super-role-warning-dialog.tsx";
import { Footer } from "../features/shell/footer.tsx";
import { Header } from "../features/shell/header.tsx";
import { canAccess } from "../lib/access.ts";
import { isSuperRole } from "../lib/claims.ts";
import { missingCustomerSettings } from "../lib/customer.ts";
import { watchInactivity } from "../lib/inactivity.ts";
import { moduleById } from "../lib/modules.ts";
import { useRouteInfo } from "../lib/route-info.ts";
import { sessionExpiringAtom, useAccessContext, useSession } from "../lib/session-atoms.ts";
import { TooltipProvider } from "../ui/tooltip.tsx";
import { endSession, renewSession } from "./session.ts";
import { appStore } from "./store.ts";

/** Spec 6: super roles on a customer with unset mandatory settings are sent to the settings. */
function SuperRoleWarning() {
  const { user, claims, customer } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const missing = missingCustomerSettings(customer);
  const open = isSuperRole(user.role ?? claims.role) && missing.length > 0 &&
    dismissed !== customer.key && !pathname.startsWith("/global-settings");
  return (
    <SuperRoleWarningDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setDismissed(customer.key);
      }}
      customerName={customer.name}
      missing={missing}
      onGoToSettings={() => {
        setDismissed(customer.key);
        void navigate({ to: "/global-settings", hash: "apps-settings" });
      }}
    />
  );
}

/** Keeps the document title on the current screen: `Grid Monitoring · GridWatch`. */
function useDocumentTitle(moduleTitle: string | null, appName: string): void {
  useEffect(() => {
    document.title = moduleTitle ? `${moduleTitle} · ${appName}` : appName;
  }, [moduleTitle, appName]);
}

/** Spec 2.9: inactivity shows the same dialog as an expiring token (never on a kiosk). */
function useInactivityDialog(limitMinutes: number): void {
  const setExpiring = useSetAtom(sessionExpiringAtom);
  useEffect(() => watchInactivity(window, limitMinutes, () => setExpiring(true)), [
    limitMinutes,
    setExpiring,
  ]);
}

/**
 * The signed-in shell: header, the screen (or the 403 page when the access guard refuses it),
 * footer, and the session dialogs.
 */
export function AppShell() {
  const { t } = useTranslation(["common", "modules"]);
  const { config, customer, user } = useSession();
  const access = useAccessContext();
  const location = useLocation();
  const { moduleId } = useRouteInfo();
  const module = moduleById(moduleId);
  const allowed = canAccess(module?.access, access, location);
  const expiring = useAtomValue(sessionExpiringAtom);
  useDocumentTitle(module ? t(`modules:${module.id}.title`) : null, config.appName);
  useInactivityDialog(user.kiosk ? 0 : config.sessionInactivityMinutes);

  return (
    <TooltipProvider delayDuration={300}>
      <div className="flex h-screen min-w-[1024px] flex-col bg-background">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2"
        >
          {t("skipToContent")}
        </a>
        <Header notifications={<NotificationBell />} onLogout={() => void endSession()} />
        <main id="main" tabIndex={-1} className="flex min-h-0 flex-1 flex-col overflow-auto">
          {/* A super role's switch of customer remounts the screen: it loads the new one's data. */}
          <Fragment key={customer.key}>{allowed ? <Outlet /> : <ForbiddenPage />}</Fragment>
        </main>
        <Footer />
      </div>
      <SessionExpiringDialog
        open={expiring}
        onContinue={() => renewSession(appStore)}
        onLogout={() => void endSession()}
      />
      <SuperRoleWarning />
    </TooltipProvider>
  );
}
