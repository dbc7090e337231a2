import { type ReactElement, useId } from "react";
import { cn } from "./cn.ts";
import { Label } from "./label.tsx";

/**
 * A labelled form control with its error message: the control gets the id, `aria-invalid` and
 * `aria-describedby` through the render function.
 */
export function FormField({
  label,
  error,
  hint,
  className,
  children,
}: {
  label: string;
  error?: string | null | undefined;
  hint?: string | undefined;
  className?: string;
  children: (props: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby": string | undefined;
  }) => ReactElement;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        "aria-invalid": Boolean(error),
        "aria-describedby": error || hint ? messageId : undefined,
      })}
      {error
        ? (
          <p id={messageId} role="alert" className="text-xs text-state-critical">
            {error}
          </p>
        )
        : hint
        ? <p id={messageId} className="text-xs text-muted-foreground">{hint}</p>
        : null}
    </div>
  );
}
