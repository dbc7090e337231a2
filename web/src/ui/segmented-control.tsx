import type { ReactNode } from "react";
import { cn } from "./cn.ts";

/** One option of a {@link SegmentedControl}. */
export interface SegmentOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
  /** Wraps the rendered option, e.g. in a tooltip explaining why it is disabled. */
  wrap?: (option: ReactNode) => ReactNode;
}

/**
 * A group of mutually exclusive buttons (radio semantics), e.g. the voltage toggle. Disabled
 * options stay focusable with aria-disabled so their tooltip can still be read.
 */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
  tone = "surface",
}: {
  label: string;
  value: T;
  options: readonly SegmentOption<T>[];
  onChange: (value: T) => void;
  className?: string;
  tone?: "surface" | "header";
}) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={cn(
        "inline-flex h-8 items-center rounded-md p-0.5 text-xs font-medium",
        tone === "header"
          ? "bg-header-accent text-header-muted"
          : "bg-surface-muted text-muted-foreground",
        className,
      )}
    >
      {options.map((option) => {
        const selected = option.value === value;
        const button = (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={selected}
            aria-disabled={option.disabled || undefined}
            onClick={() => {
              if (!option.disabled && !selected) onChange(option.value);
            }}
            className={cn(
              "h-7 rounded px-2.5 transition-colors",
              selected
                ? tone === "header"
                  ? "bg-primary text-primary-foreground"
                  : "bg-surface text-foreground shadow-sm"
                : "hover:text-foreground",
              tone === "header" && !selected && "hover:text-header-foreground",
              option.disabled && "cursor-not-allowed opacity-50",
            )}
          >
            {option.label}
          </button>
        );
        return option.wrap ? <span key={option.value}>{option.wrap(button)}</span> : button;
      })}
    </div>
  );
}
