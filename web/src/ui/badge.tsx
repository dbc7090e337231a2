import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn.ts";
import { SOFT_TONE, type Tone } from "./tones.ts";

export type { Tone as BadgeTone } from "./tones.ts";

/** A small pill with a state's tone: a count, a status, a level. Give it words or an icon. */
export function Badge({
  tone = "neutral",
  icon,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { tone?: Tone; icon?: ReactNode }) {
  return (
    <span
      className={cn(
        "tabular inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium [&_svg]:size-3.5",
        SOFT_TONE[tone],
        className,
      )}
      {...rest}
    >
      {icon}
      {children}
    </span>
  );
}
