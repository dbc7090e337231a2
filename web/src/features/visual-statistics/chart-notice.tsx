/**
 * Why a chart area shows no chart: an empty selection, a refused selection or period, or the
 * server's answer (410 no data, 404 unknown element); a failed load offers 'Try Reload'.
 */
import { Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { cn } from "../../ui/cn.ts";
import { LoadError } from "../../ui/loader.tsx";

export function ChartNotice({
  title,
  description,
  code,
  icon,
  tone = "info",
  className,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  code?: number | undefined;
  /** Replaces the tone's icon (an empty selection shows what to pick). */
  icon?: ReactNode;
  tone?: "info" | "warning";
  className?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation("common");
  return (
    <div
      role={tone === "warning" ? "alert" : "status"}
      className={cn(
        "flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed bg-surface px-6 py-10 text-center",
        className,
      )}
    >
      <div
        className={cn(
          "[&_svg]:size-7",
          tone === "warning" ? "text-state-warning" : "text-muted-foreground",
        )}
      >
        {icon ?? (tone === "warning" ? <TriangleAlert aria-hidden /> : <Info aria-hidden />)}
      </div>
      <p className="text-sm font-medium text-foreground">{title}</p>
      {description
        ? <p className="max-w-prose text-sm text-muted-foreground">{description}</p>
        : null}
      {code !== undefined
        ? <small className="text-xs text-muted-foreground">{t("errors.code", { code })}</small>
        : null}
      {children ? <div className="mt-1 flex flex-wrap justify-center gap-2">{children}</div> : null}
    </div>
  );
}

/** A refused request shows the catalogue text; no answer or a server error 'Unable to load data'. */
export function LoadProblem(
  { error, onRetry, className }: { error: unknown; onRetry: () => void; className?: string },
) {
  const errorText = useErrorText();
  const refused = error instanceof ApiError && error.status !== null && error.status >= 400 &&
    error.status < 500 && Boolean(error.body?.key);
  if (!refused) {
    return (
      <LoadError onRetry={onRetry} className={cn("rounded-lg border bg-surface", className)} />
    );
  }
  const { text, code } = errorText(error);
  return (
    <ChartNotice tone="warning" title={text} code={code} {...(className ? { className } : {})} />
  );
}

/** A control with its small label above it. */
export function Labelled(
  { label, className, children }: { label: string; className?: string; children: ReactNode },
) {
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      {children}
    </div>
  );
}
