/** A cell's status badge (the server's label key) and its GPS and GSM indicators (spec 4). */
import { MapPin, MapPinOff, Signal, SignalHigh, SignalLow, SignalMedium } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "../../../ui/cn.ts";
import type { SetupCell } from "./cells-api.ts";

const TONES: Record<string, string> = {
  connected: "bg-state-ok-soft text-state-ok",
  configured: "bg-state-ok-soft text-state-ok",
  disconnected: "bg-state-offline-soft text-state-offline",
  issue: "bg-state-critical-soft text-state-critical",
  mappingNotValid: "bg-state-critical-soft text-state-critical",
  failedOrSkipped: "bg-state-warning-soft text-state-warning",
  notSynchronized: "bg-state-warning-soft text-state-warning",
  notCompleted: "bg-state-warning-soft text-state-warning",
  toBeConfigured: "bg-state-warning-soft text-state-warning",
};

/** A status with the display label of spec 4 (the key comes from the server). */
export function StatusBadge({ label }: { label: string }) {
  const { t } = useTranslation("cells");
  return (
    <span
      className={cn(
        "shrink-0 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        TONES[label] ?? "bg-state-unknown-soft text-foreground",
      )}
    >
      {t(`status.${label}`)}
    </span>
  );
}

const GSM_ICONS: Record<string, ReactNode> = {
  EXCELLENT: <Signal aria-hidden className="size-4 text-state-ok" />,
  GOOD: <SignalHigh aria-hidden className="size-4 text-state-ok" />,
  FAIR: <SignalMedium aria-hidden className="size-4 text-state-warning" />,
  POOR: <SignalLow aria-hidden className="size-4 text-state-critical" />,
};

/** GPS fix and GSM signal quality (spec 4). */
export function Indicators({ cell }: { cell: SetupCell }) {
  const { t } = useTranslation("cells");
  const gps = cell.gps_fix ?? "unknown";
  const gsm = cell.gsm_signal ?? "unknown";
  const fixed = gps !== "NO_SIGNAL" && gps !== "unknown";
  return (
    <span className="flex shrink-0 items-center gap-1.5">
      <span title={t(`gps.${gps}`)} aria-label={t(`gps.${gps}`)} role="img">
        {fixed
          ? <MapPin aria-hidden className="size-4 text-state-ok" />
          : <MapPinOff aria-hidden className="size-4 text-muted-foreground" />}
      </span>
      <span
        title={t("gsm.label", { quality: t(`gsm.${gsm}`) })}
        aria-label={t("gsm.label", { quality: t(`gsm.${gsm}`) })}
        role="img"
      >
        {GSM_ICONS[gsm] ?? <Signal aria-hidden className="size-4 text-muted-foreground/40" />}
      </span>
    </span>
  );
}
