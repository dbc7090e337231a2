import type { ComponentProps } from "react";
import { cn } from "./cn.ts";

/** The look shared by text inputs, text areas and selects. */
export const fieldControlClass =
  "w-full rounded-md border border-input bg-surface px-2.5 text-sm text-foreground shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-state-critical";

/** A single-line text or number input. */
export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(fieldControlClass, "h-8", className)} {...props} />;
}

/** A multi-line text input. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(fieldControlClass, "min-h-16 py-1.5", className)} {...props} />;
}

/** A native select: keyboard and screen-reader friendly, with long lists (time zones). */
export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(fieldControlClass, "h-8 pr-7", className)} {...props} />;
}
