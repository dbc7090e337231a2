import { Link, useLocation, useSearch } from "@tanstack/react-router";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { buildMegaMenu, type MenuDenial, type MenuEntry } from "../../lib/navigation.ts";
import { useAccessContext, useSession } from "../../lib/session-atoms.ts";
import { carriedVoltage } from "../../lib/voltage.ts";
import { cn } from "../../ui/cn.ts";
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from "../../ui/sheet.tsx";
import { Tooltip } from "../../ui/tooltip.tsx";
import { LogoMark } from "./logo-mark.tsx";
import { ModuleIcon } from "./module-icon.tsx";

const DENIAL_KEYS: Record<Exclude<MenuDenial, null>, string> = {
  "not-built": "megaMenu.denied.notBuilt",
  "no-role": "megaMenu.denied.noRole",
  "admin-only": "megaMenu.denied.adminOnly",
  "not-in-customer-applications": "megaMenu.denied.notInCustomerApplications",
};

/** One entry: a link when allowed, else a greyed, focusable, non-clickable item with a reason. */
function Entry({
  entry,
  className,
  activeClassName,
  onNavigate,
  children,
}: {
  entry: MenuEntry;
  className: string;
  activeClassName: string;
  onNavigate: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation("shell");
  const search: { voltage?: unknown } = useSearch({ strict: false });
  const { pathname } = useLocation();
  if (entry.denial !== null) {
    return (
      <Tooltip content={t(DENIAL_KEYS[entry.denial])} side="right">
        <span
          role="link"
          tabIndex={0}
          aria-disabled="true"
          className={cn(className, "cursor-not-allowed opacity-45 grayscale")}
        >
          {children}
        </span>
      </Tooltip>
    );
  }
  const root = `/${entry.path.split("/")[1] ?? ""}`;
  const active = pathname === root || pathname.startsWith(`${root}/`);
  return (
    <Link
      to={entry.path}
      search={entry.carriesVoltage ? carriedVoltage(search) : {}}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      className={cn(className, active && activeClassName)}
    >
      {children}
    </Link>
  );
}

/**
 * The mega menu drawer of spec 2.5: toolset icons, Data Export with its text, and the
 * software modules. Opened by the logo button.
 */
export function MegaMenu({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation(["shell", "modules"]);
  const { config } = useSession();
  const menu = buildMegaMenu(useAccessContext());
  const close = () => onOpenChange(false);
  const title = (id: string) => t(`modules:${id}.title`);

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-describedby={undefined}>
        <div className="flex h-12 items-center gap-2 bg-header px-3 text-header-foreground">
          <LogoMark className="size-7" />
          <SheetTitle className="flex-1 text-sm font-semibold">{config.appName}</SheetTitle>
          <SheetClose
            className="flex size-8 items-center justify-center rounded-md hover:bg-header-accent"
            aria-label={t("megaMenu.close")}
          >
            <X aria-hidden className="size-4" />
          </SheetClose>
        </div>
        <SheetDescription className="sr-only">{t("megaMenu.description")}</SheetDescription>
        <nav aria-label={t("megaMenu.label")} className="flex-1 overflow-y-auto p-3">
          <h2 className="px-1 pb-2 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
            {t("megaMenu.toolset")}
          </h2>
          <ul className="grid grid-cols-5 gap-1">
            {menu.toolset.map((entry) => (
              <li key={entry.id}>
                <Entry
                  entry={entry}
                  onNavigate={close}
                  className="flex h-16 flex-col items-center justify-center gap-1 rounded-md px-1 text-center text-[11px] leading-tight text-foreground hover:bg-surface-muted"
                  activeClassName="bg-accent text-accent-foreground"
                >
                  <ModuleIcon id={entry.id} className="size-5 text-primary" />
                  <span className="line-clamp-2 hyphens-auto break-words">
                    {t(`modules:${entry.id}.short`)}
                  </span>
                </Entry>
              </li>
            ))}
          </ul>

          <div className="my-3 border-t" />
          <Entry
            entry={menu.dataExport}
            onNavigate={close}
            className="flex items-start gap-3 rounded-md border bg-surface-muted/60 p-3 hover:bg-surface-muted"
            activeClassName="border-primary bg-accent"
          >
            <ModuleIcon id="data-export" className="mt-0.5 size-5 text-primary" />
            <span className="flex flex-col">
              <span className="text-sm font-medium">
                {title("data-export")}
                {menu.dataExport.denial === "not-built"
                  ? (
                    <span className="ml-2 text-[11px] font-normal text-muted-foreground">
                      {t("megaMenu.notBuiltShort")}
                    </span>
                  )
                  : null}
              </span>
              <span className="text-xs text-muted-foreground">{t("megaMenu.dataExportText")}</span>
            </span>
          </Entry>

          <div className="my-3 border-t" />
          <h2 className="px-1 pb-2 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
            {t("megaMenu.modules")}
          </h2>
          <ul className="flex flex-col gap-0.5">
            {menu.modules.map((entry) => (
              <li key={entry.id}>
                <Entry
                  entry={entry}
                  onNavigate={close}
                  className="flex h-9 items-center gap-3 rounded-md px-2 text-sm hover:bg-surface-muted"
                  activeClassName="bg-accent font-medium text-accent-foreground"
                >
                  <ModuleIcon id={entry.id} className="size-4 text-primary" />
                  <span className="flex-1">{title(entry.id)}</span>
                  {entry.denial === "not-built"
                    ? (
                      <span className="text-[11px] text-muted-foreground">
                        {t("megaMenu.notBuiltShort")}
                      </span>
                    )
                    : null}
                </Entry>
              </li>
            ))}
          </ul>
        </nav>
      </SheetContent>
    </Sheet>
  );
}
