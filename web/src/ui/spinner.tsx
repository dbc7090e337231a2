import { LoaderCircle } from "lucide-react";
import { cn } from "./cn.ts";

/** A spinning indicator; pass `label` for screen readers. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-live="polite" className="inline-flex items-center gap-2">
      <LoaderCircle aria-hidden className={cn("size-5 animate-spin text-primary", className)} />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
