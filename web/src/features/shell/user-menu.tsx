import { Link } from "@tanstack/react-router";
import { useAtom, useAtomValue, useSetAtom } from "jotai";
import { Building2, Languages, LogOut, Monitor, Moon, Sun, UserRound } from "lucide-react";
import { useTranslation } from "react-i18next";
import { setUiLanguage } from "../../i18n/i18n.ts";
import { api } from "../../lib/api.ts";
import { isSuperRole } from "../../lib/claims.ts";
import { UI_LANGUAGES, type UiLanguage } from "../../lib/language.ts";
import type { CurrentUserDto as CurrentUser } from "../../../../modules/users/contract.ts";
import { storeSelectedCustomer } from "../../lib/customer-storage.ts";
import {
  currentUserAtom,
  customerAtom,
  customersAtom,
  useSession,
} from "../../lib/session-atoms.ts";
import { themePreferenceAtom } from "../../lib/shell-atoms.ts";
import { applyTheme, storeThemePreference, type ThemePreference } from "../../lib/theme.ts";
import { Button } from "../../ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : [parts[0]];
  return letters.map((p) => p?.[0] ?? "").join("").toUpperCase() || "?";
}

const THEMES: readonly { value: ThemePreference; icon: typeof Sun }[] = [
  { value: "light", icon: Sun },
  { value: "dark", icon: Moon },
  { value: "system", icon: Monitor },
];

/** User menu: name, My Profile & Settings, theme, customer (super roles) and Logout. */
export function UserMenu({ onLogout }: { onLogout: () => void }) {
  const { t, i18n } = useTranslation("shell");
  const { user, claims } = useSession();
  const [theme, setTheme] = useAtom(themePreferenceAtom);
  const customers = useAtomValue(customersAtom);
  const customer = useAtomValue(customerAtom);
  const setCustomer = useSetAtom(customerAtom);
  const setUser = useSetAtom(currentUserAtom);
  const name = user.name || claims.name;
  const superRole = isSuperRole(user.role ?? claims.role);

  const chooseTheme = (value: string) => {
    const preference = value as ThemePreference;
    setTheme(preference);
    storeThemePreference(preference);
    applyTheme(preference);
  };
  // The choice is stored in the user's profile, so it follows the user to every device.
  const chooseLanguage = async (value: string) => {
    const language = value as UiLanguage;
    const saved = await api.patch<CurrentUser>(`/usm/users/current/${user.user_id}`, { language });
    setUser(saved);
    await setUiLanguage(language);
  };
  const chooseCustomer = (key: string) => {
    const next = customers.find((c) => c.key === key);
    if (!next) return;
    storeSelectedCustomer(key);
    setCustomer(next);
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="header"
          className="h-8 gap-2 px-1.5"
          aria-label={t("user.menuLabel", { name })}
        >
          <span
            aria-hidden
            className="flex size-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          >
            {initials(name)}
          </span>
          <span className="hidden max-w-40 truncate text-sm xl:inline">{name}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <div className="px-2 py-1.5">
          <p className="truncate text-sm font-medium">{name}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email || claims.email}</p>
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/user-settings">
            <UserRound aria-hidden />
            {t("user.profile")}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="flex items-center gap-1.5">
          <Languages aria-hidden className="size-3.5" />
          {t("user.language")}
        </DropdownMenuLabel>
        <DropdownMenuRadioGroup value={i18n.language} onValueChange={chooseLanguage}>
          {UI_LANGUAGES.map((code) => (
            <DropdownMenuRadioItem key={code} value={code} lang={code}>
              {t(`common:languages.${code}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuLabel>{t("user.theme")}</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={theme} onValueChange={chooseTheme}>
          {THEMES.map(({ value, icon: Icon }) => (
            <DropdownMenuRadioItem key={value} value={value}>
              <Icon aria-hidden />
              {t(`user.themes.${value}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        {superRole && customers.length > 1
          ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuLabel className="flex items-center gap-1.5">
                <Building2 aria-hidden className="size-3.5" />
                {t("user.customer")}
              </DropdownMenuLabel>
              <div className="max-h-48 overflow-y-auto">
                <DropdownMenuRadioGroup value={customer?.key ?? ""} onValueChange={chooseCustomer}>
                  {customers.map((c) => (
                    <DropdownMenuRadioItem key={c.key} value={c.key}>
                      <span className="truncate">{c.name || c.auth_connection_name}</span>
                    </DropdownMenuRadioItem>
                  ))}
                </DropdownMenuRadioGroup>
              </div>
            </>
          )
          : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onLogout}>
          <LogOut aria-hidden />
          {t("user.logout")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
