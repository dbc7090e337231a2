import { cn } from "./cn.ts";

/** A small count bubble placed on an icon button; the text is computed by the caller. */
export function CountBadge({ text, className }: { text: string | null; className?: string }) {
  if (text === null) return null;
  return (
    <span
      aria-hidden
      className={cn(
        "pointer-events-none absolute -right-1 -top-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-state-critical px-1 text-[10px] font-semibold leading-none text-white tabular",
        className,
      )}
    >
      {text}
    </span>
  );
}
