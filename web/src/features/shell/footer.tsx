import { useTranslation } from "react-i18next";
import { isSuperRole } from "../../lib/claims.ts";
import { helpLinks } from "../../lib/help-links.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { gmtOffsetLabel } from "../../lib/time-zone.ts";

/**
 * The footer of spec 2.6: copyright year, app name, version, the customer's name (super roles
 * only), the customer's GMT offset and the vendor link: the configured VENDOR_URL, else the
 * product's own about page in the help (served offline).
 */
export function Footer() {
  const { t, i18n } = useTranslation("shell");
  const { config, customer, user, claims } = useSession();
  const offset = gmtOffsetLabel(customer.default_timezone);
  const superRole = isSuperRole(user.role ?? claims.role);
  const items = [
    t("footer.copyright", { year: new Date().getFullYear(), appName: config.appName }),
    config.version ? t("footer.version", { version: config.version }) : null,
    superRole ? t("footer.customer", { name: customer.name }) : null,
    offset ? t("footer.timeZone", { offset, zone: customer.default_timezone }) : null,
  ].filter((item): item is string => item !== null);

  return (
    <footer className="flex h-7 shrink-0 items-center gap-3 border-t bg-surface px-3 text-xs text-muted-foreground">
      <ul className="flex min-w-0 items-center gap-3 truncate">
        {items.map((item, i) => (
          <li key={item} className={i > 0 ? "border-l pl-3" : undefined}>
            {item}
          </li>
        ))}
      </ul>
      <a
        href={config.vendorUrl ||
          helpLinks({
            baseUrl: config.helpBaseUrl,
            language: i18n.language,
            documentationKey: claims.documentationKey,
            page: null,
          }).about}
        target="_blank"
        rel="noopener noreferrer"
        className="ml-auto shrink-0 hover:text-foreground hover:underline"
      >
        {config.vendorUrl ? t("footer.vendor") : t("footer.about", { appName: config.appName })}
      </a>
    </footer>
  );
}
