/** What the custom monitoring pieces share: the calls' base path, the refresh, durations. */
import { useTranslation } from "react-i18next";

export const CUSTOM_BASE = "/evm/custom-monitoring";
/** Requests and the running request's values follow the cell's 20-s values. */
export const LIVE_MS = 20_000;

/** A duration in minutes as "45 min" or "3 h". */
export function useDurationText(): (minutes: number | null) => string {
  const { t } = useTranslation("grid-monitoring");
  return (m) =>
    m === null
      ? t("custom.untilStopped")
      : m >= 60 && m % 60 === 0
      ? t("custom.hours", { count: m / 60 })
      : t("custom.minutes", { count: m });
}
