import { TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";
import { cn } from "./cn.ts";
import { Spinner } from "./spinner.tsx";

/** Spinner delay: spec 4 and 9 ask for 300 to 500 ms so fast loads do not flicker. */
export const SPINNER_DELAY_MS = 400;

/** Shows a spinner, but only once `delay` ms have passed. */
export function Loader({
  delay = SPINNER_DELAY_MS,
  label,
  className,
}: {
  delay?: number;
  label?: string;
  className?: string;
}) {
  const { t } = useTranslation("common");
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = window.setTimeout(() => setVisible(true), delay);
    return () => window.clearTimeout(timer);
  }, [delay]);
  return (
    <div
      className={cn("flex min-h-24 items-center justify-center gap-2", className)}
      aria-busy="true"
    >
      {visible
        ? (
          <>
            <Spinner />
            <span className="text-sm text-muted-foreground">{label ?? t("states.loading")}</span>
          </>
        )
        : null}
    </div>
  );
}

/** The failed-load warning of spec 8.1: 'Unable to load data' with 'Try Reload'. */
export function LoadError({
  onRetry,
  message,
  code,
  className,
}: {
  /** Reloads the data; reloads the page when not given. */
  onRetry?: () => void;
  message?: string;
  code?: number;
  className?: string;
}) {
  const { t } = useTranslation("common");
  return (
    <div
      role="alert"
      className={cn(
        "flex min-h-24 flex-col items-center justify-center gap-3 p-4 text-center",
        className,
      )}
    >
      <div className="flex items-center gap-2 text-state-warning">
        <TriangleAlert aria-hidden className="size-5" />
        <span className="text-sm font-medium text-foreground">
          {message ?? t("states.unableToLoad")}
        </span>
      </div>
      {code !== undefined
        ? <small className="text-xs text-muted-foreground">{t("errors.code", { code })}</small>
        : null}
      <Button variant="secondary" size="sm" onClick={onRetry ?? (() => window.location.reload())}>
        {t("states.tryReload")}
      </Button>
    </div>
  );
}

/** What {@link AsyncState} renders from. */
export type AsyncStateValue<T> =
  | { status: "loading" }
  | { status: "error"; error?: unknown }
  | { status: "success"; data: T };

/** Renders a load: delayed spinner, then the data or the failed-load warning. */
export function AsyncState<T>({
  state,
  onRetry,
  children,
  className,
}: {
  state: AsyncStateValue<T>;
  onRetry?: () => void;
  children: (data: T) => ReactNode;
  className?: string;
}) {
  if (state.status === "loading") return <Loader className={className} />;
  if (state.status === "error") {
    return onRetry
      ? <LoadError onRetry={onRetry} className={className} />
      : <LoadError className={className} />;
  }
  return <>{children(state.data)}</>;
}
