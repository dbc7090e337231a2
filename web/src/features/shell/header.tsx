import { useLocation } from "@tanstack/react-router";
import { ChevronDown } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCustomerLogo } from "../../lib/customer-logo.ts";
import { moduleById } from "../../lib/modules.ts";
import { useRouteInfo } from "../../lib/route-info.ts";
import { canAccess } from "../../lib/access.ts";
import { useAccessContext, useSession } from "../../lib/session-atoms.ts";
import { HelpMenu } from "./help-menu.tsx";
import { LogoMark } from "./logo-mark.tsx";
import { MegaMenu } from "./mega-menu.tsx";
import { ModuleIcon } from "./module-icon.tsx";
import { RunModeSwitch } from "./run-mode-switch.tsx";
import { UserMenu } from "./user-menu.tsx";
import { VoltageToggle } from "./voltage-toggle.tsx";

/**
 * The top header of spec 2.4. Left: logo button (mega menu) and the current app. Right, in
 * order: voltage toggle, run-mode switch, Help Centre, notification bell, user menu. The bell
 * comes from the notifications feature through the `notifications` slot.
 */
export function Header({
  notifications,
  onLogout,
}: {
  notifications: ReactNode;
  onLogout: () => void;
}) {
  const { t } = useTranslation(["shell", "modules"]);
  const { config, customer } = useSession();
  const logo = useCustomerLogo(customer.key, customer.logo_etag);
  const [menuOpen, setMenuOpen] = useState(false);
  const { moduleId, section } = useRouteInfo();
  const module = moduleById(moduleId);
  // The 403 page of a refused screen shows no switch of that screen.
  const allowed = canAccess(module?.access, useAccessContext(), useLocation());

  return (
    <header className="sticky top-0 z-40 flex h-12 shrink-0 items-center gap-3 border-b border-header-accent bg-header px-2 text-header-foreground shadow-sm">
      <button
        type="button"
        onClick={() => setMenuOpen(true)}
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        aria-label={t("shell:header.openMenu")}
        className="flex h-9 items-center gap-2 rounded-md px-1.5 hover:bg-header-accent"
      >
        <LogoMark className="size-7" />
        <span className="hidden text-sm font-semibold tracking-wide sm:inline">
          {config.appName}
        </span>
        <ChevronDown aria-hidden className="size-3.5 text-header-muted" />
      </button>
      <MegaMenu open={menuOpen} onOpenChange={setMenuOpen} />
      {logo
        ? (
          <img
            src={logo}
            alt={t("settings:logo.headerAlt", { name: customer.name })}
            className="h-8 max-w-32 rounded-sm bg-white object-contain p-0.5"
          />
        )
        : null}

      {module
        ? (
          <div className="flex min-w-0 items-center gap-2 border-l border-header-accent pl-3">
            <ModuleIcon id={module.id} className="size-4 shrink-0 text-header-muted" />
            <span className="truncate text-sm font-medium">{t(`modules:${module.id}.title`)}</span>
            {section
              ? (
                <span className="hidden truncate text-sm text-header-muted md:inline">
                  {t(`modules:${module.id}.sections.${section}`)}
                </span>
              )
              : null}
          </div>
        )
        : null}

      <div className="ml-auto flex items-center gap-3">
        {allowed && module?.voltageSwitch ? <VoltageToggle /> : null}
        {allowed && module?.runModeSwitch ? <RunModeSwitch /> : null}
        <div className="flex items-center gap-1">
          <HelpMenu />
          {notifications}
          <UserMenu onLogout={onLogout} />
        </div>
      </div>
    </header>
  );
}
