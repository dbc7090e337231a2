import { CircleCheck, CircleMinus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { denialReason } from "../../lib/access.ts";
import { type ModuleId, MODULES } from "../../lib/modules.ts";
import { useAccessContext, useSession } from "../../lib/session-atoms.ts";
import { Card } from "./settings-section.tsx";

const LISTED: readonly ModuleId[] = [
  "data-export",
  "infrastructure-setup",
  "scada-connector",
  "user-management",
  "global-settings",
  "api-settings",
  "metering-information",
  "grid-monitoring",
  "visual-statistics",
  "power-quality",
  "io-monitoring",
  "api-doc",
];

/** The module's role held by the user (last segment of the apps_roles entry), if any. */
function roleFor(appsRoles: readonly string[], key: string): string | null {
  const entry = appsRoles.find((e) => e.startsWith(`${key}:`));
  return entry ? (entry.split(":").pop() ?? null) : null;
}

/** Which modules the user may open, with the role held. */
export function ModuleAccessCard() {
  const { t } = useTranslation(["user-settings", "modules"]);
  const { customer } = useSession();
  const access = useAccessContext();
  const modules = LISTED.filter(
    (id) =>
      !MODULES[id].access.requiresCustomerApplication ||
      customer.applications.includes(MODULES[id].access.key),
  );
  return (
    <Card title={t("moduleAccess")}>
      <ul className="divide-y">
        {modules.map((id) => {
          const denial = denialReason(MODULES[id].access, access);
          const role = roleFor(access.appsRoles, MODULES[id].access.key);
          return (
            <li key={id} className="flex items-center gap-2 py-1.5 text-sm">
              {denial === null
                ? <CircleCheck aria-hidden className="size-4 text-state-ok" />
                : <CircleMinus aria-hidden className="size-4 text-state-offline" />}
              <span className="flex-1">{t(`modules:${id}.title`)}</span>
              <span className="text-xs text-muted-foreground">
                {denial === null
                  ? role
                    ? t("access.grantedWithRole", {
                      role: t(`roles.${role}`, { defaultValue: role }),
                    })
                    : t("access.granted")
                  : t(`access.${denial}`)}
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
