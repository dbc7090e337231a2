import type { ReactNode } from "react";
import { cn } from "./cn.ts";

/** An explained empty area: icon, title, optional description and actions. */
export function EmptyState({
  icon,
  title,
  description,
  children,
  className,
}: {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed bg-surface px-6 py-12 text-center",
        className,
      )}
    >
      {icon ? <div className="mb-1 text-muted-foreground [&_svg]:size-8">{icon}</div> : null}
      <p className="text-sm font-medium text-foreground">{title}</p>
      {description
        ? <p className="max-w-prose text-sm text-muted-foreground">{description}</p>
        : null}
      {children ? <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div> : null}
    </div>
  );
}
