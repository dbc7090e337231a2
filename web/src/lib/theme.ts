/** Light and dark themes: the preference is kept in localStorage, the default follows the OS. */

export type ThemePreference = "light" | "dark" | "system";
export const THEME_STORAGE_KEY = "gw.theme";

/** Reads the stored preference; anything unknown means `system`. */
export function readThemePreference(): ThemePreference {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

/** Stores the preference; `system` removes the entry. */
export function storeThemePreference(preference: ThemePreference): void {
  try {
    if (preference === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage may be disabled; the theme still applies for this page.
  }
}

/** True when the preference resolves to dark, given the OS setting. */
export function isDark(preference: ThemePreference, osPrefersDark: boolean): boolean {
  return preference === "dark" || (preference === "system" && osPrefersDark);
}

const darkQuery = () => window.matchMedia?.("(prefers-color-scheme: dark)");

/** Applies the preference to the document element (`dark` class and color-scheme). */
export function applyTheme(preference: ThemePreference): void {
  const dark = isDark(preference, darkQuery()?.matches ?? false);
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
}

/** Re-applies the `system` preference when the OS switches; returns the unsubscribe. */
export function followSystemTheme(getPreference: () => ThemePreference): () => void {
  const query = darkQuery();
  if (!query) return () => {};
  const listener = () => {
    if (getPreference() === "system") applyTheme("system");
  };
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}
