import { useTranslation } from "react-i18next";
import { type BrowserCheck, MINIMUM_VERSIONS } from "../../lib/browser-support.ts";
import "../../unsupported.css";

const BROWSERS = ["chrome", "firefox", "edge", "safari"] as const;

/**
 * The warning of spec 2.2 for browsers older than the supported ones. Styled with plain CSS
 * (unsupported.css) because old browsers cannot apply the main stylesheet.
 */
export function UnsupportedBrowserPage({ check }: { check: BrowserCheck }) {
  const { t } = useTranslation("common");
  return (
    <main className="gw-unsupported">
      <h1>{t("browser.title")}</h1>
      <p>{t("browser.intro")}</p>
      <ul>
        {BROWSERS.map((name) => (
          <li key={name}>{t(`browser.${name}`, { version: MINIMUM_VERSIONS[name] })}</li>
        ))}
      </ul>
      {check.browser !== "unknown"
        ? (
          <small>
            {t("browser.detected", {
              name: t(`browser.names.${check.browser}`),
              version: check.version ?? "?",
            })}
          </small>
        )
        : null}
    </main>
  );
}
