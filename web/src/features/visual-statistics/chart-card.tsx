/** The frame of one chart: what it shows (feeder, parameter, unit) and at which resolution. */
import type { ReactNode } from "react";
import { Badge } from "../../ui/badge.tsx";
import { useTranslation } from "react-i18next";
import type { Resolution } from "./vsm-api.ts";

export function ChartCard({
  title,
  subtitle,
  resolution,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  resolution?: Resolution | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation("statistics");
  return (
    <article className="flex min-w-0 flex-col gap-1 rounded-lg border bg-surface p-3">
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate text-sm font-semibold text-foreground">{title}</h2>
          {subtitle ? <p className="text-xs text-muted-foreground">{subtitle}</p> : null}
        </div>
        {resolution
          ? <Badge data-testid="resolution">{t(`resolution.${resolution}`)}</Badge>
          : null}
      </header>
      {children}
    </article>
  );
}

/** "Voltage U (V)": the parameter's name with its unit, when it has one. */
export function useParameterLabel() {
  const { t } = useTranslation("statistics");
  return (key: string, unit: string) =>
    unit ? `${t(`parameters.${key}`)} (${unit})` : t(`parameters.${key}`);
}
