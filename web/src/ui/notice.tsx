import { CircleAlert, CircleCheck, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "./cn.ts";
import { liveRole, PANEL_TONE, type Tone } from "./tones.ts";

const ICONS: Record<Tone, ReactNode> = {
  ok: <CircleCheck aria-hidden />,
  warning: <TriangleAlert aria-hidden />,
  critical: <CircleAlert aria-hidden />,
  neutral: <Info aria-hidden />,
};

/**
 * One inline message in the flow of a screen or form: a saved change, a refused save (with the
 * catalogue code in small print), a failed refresh, a selection that cannot be shown. Warnings
 * and failures are alerts; the rest is announced politely. `action` holds a button.
 */
export function Notice({
  tone = "neutral",
  icon,
  code,
  action,
  role,
  className,
  children,
  ...rest
}: {
  tone?: Tone;
  /** Replaces the tone's icon. */
  icon?: ReactNode;
  code?: number | undefined;
  action?: ReactNode;
  /** Overrides the tone's live role (a warning that only informs is a status). */
  role?: "alert" | "status";
  className?: string;
  children: ReactNode;
  "data-testid"?: string;
}) {
  const { t } = useTranslation("common");
  const look = PANEL_TONE[tone];
  return (
    <div
      role={role ?? liveRole(tone)}
      className={cn(
        "flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border px-3 py-2 text-sm text-foreground",
        look.panel,
        className,
      )}
      {...rest}
    >
      <span className={cn("shrink-0 [&_svg]:size-4", look.icon)}>{icon ?? ICONS[tone]}</span>
      <span className="min-w-0 flex-1">{children}</span>
      {code !== undefined
        ? <small className="text-xs text-muted-foreground">{t("errors.code", { code })}</small>
        : null}
      {action}
    </div>
  );
}
