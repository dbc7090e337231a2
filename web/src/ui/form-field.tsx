import { type ReactElement, type ReactNode, useId } from "react";
import { cn } from "./cn.ts";

/** What a field passes to its control so label, hint and error are announced with it. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": boolean | undefined;
  "aria-describedby": string | undefined;
}

/**
 * A labelled form field: the label, the control (rendered by `children` with the ids it needs),
 * a hint, and the error text in the state colour with an alert role.
 */
export function FormField({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  /** The error text, e.g. a catalogue text with its code in small print. */
  error?: ReactNode;
  className?: string;
  children: (control: FieldControlProps) => ReactElement;
}) {
  const id = useId();
  // The error replaces the hint while it lasts: one message under a field at a time.
  const described = error ? `${id}-error` : hint ? `${id}-hint` : "";
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">{label}</label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": described || undefined,
      })}
      {hint && !error
        ? <p id={`${id}-hint`} className="text-xs text-muted-foreground">{hint}</p>
        : null}
      {error
        ? <p id={`${id}-error`} role="alert" className="text-xs text-state-critical">{error}</p>
        : null}
    </div>
  );
}
