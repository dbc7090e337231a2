/** UI language resolution: token/user language, then the customer default, then en. */

/** Languages the interface is translated into. */
export const UI_LANGUAGES = ["en", "fr", "de", "uk"] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** Maps `fr-CH`, `FR` or `fr_ch` to `fr` when it is a UI language, else `null`. */
export function toUiLanguage(value: unknown): UiLanguage | null {
  if (typeof value !== "string") return null;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return (UI_LANGUAGES as readonly string[]).includes(base ?? "") ? base as UiLanguage : null;
}

/** The first candidate that is a UI language, else `en`. */
export function resolveLanguage(candidates: readonly unknown[]): UiLanguage {
  for (const candidate of candidates) {
    const language = toUiLanguage(candidate);
    if (language) return language;
  }
  return "en";
}

/** The help centre has a book in each interface language (scripts/help/build.ts). */
export function helpLanguage(language: string): UiLanguage {
  return toUiLanguage(language) ?? "en";
}
