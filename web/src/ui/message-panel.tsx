import type { ReactNode } from "react";
import { cn } from "./cn.ts";

/** A centred full-area message: error pages, loading screen, sign-in problems. */
export function MessagePanel({
  icon,
  eyebrow,
  title,
  description,
  children,
  className,
  tone = "neutral",
}: {
  icon?: ReactNode;
  eyebrow?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  tone?: "neutral" | "warning" | "critical";
}) {
  return (
    <div className={cn("flex flex-1 items-center justify-center p-6", className)}>
      <div className="flex max-w-lg flex-col items-center gap-3 text-center">
        {icon
          ? (
            <div
              className={cn(
                "mb-1 flex size-14 items-center justify-center rounded-full [&_svg]:size-7",
                tone === "critical" && "bg-state-critical-soft text-state-critical",
                tone === "warning" && "bg-state-warning-soft text-state-warning",
                tone === "neutral" && "bg-accent text-accent-foreground",
              )}
            >
              {icon}
            </div>
          )
          : null}
        {eyebrow
          ? (
            <p className="text-xs font-semibold uppercase tracking-wider text-muted-foreground tabular">
              {eyebrow}
            </p>
          )
          : null}
        <h1 className="text-xl font-semibold text-foreground">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        {children
          ? <div className="mt-3 flex flex-wrap justify-center gap-2">{children}</div>
          : null}
      </div>
    </div>
  );
}
