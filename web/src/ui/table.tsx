/**
 * Tables of the design system: dense rows, a header that stays in view while the body scrolls
 * (`sticky`), right-aligned numbers with tabular digits (`numeric`). Thin wrappers over the
 * table elements, so screens keep their own columns and test ids.
 */
import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "./cn.ts";

export function Table({ className, ...rest }: HTMLAttributes<HTMLTableElement>) {
  return <table className={cn("w-full border-collapse text-sm", className)} {...rest} />;
}

/** The header row group; `sticky` keeps it at the top of a scrolling container. */
export function TableHead(
  { sticky = false, className, ...rest }: HTMLAttributes<HTMLTableSectionElement> & {
    sticky?: boolean;
  },
) {
  return (
    <thead
      className={cn(
        "text-left text-xs text-muted-foreground",
        sticky && "sticky top-0 z-10 bg-surface",
        className,
      )}
      {...rest}
    />
  );
}

export function TableBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody {...props} />;
}

/** A row with a divider below it (none after the last). */
export function Row({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn("border-b last:border-0", className)} {...rest} />;
}

/** A header cell; `numeric` right-aligns it over a column of numbers. */
export function HeadCell(
  { numeric = false, className, ...rest }: ThHTMLAttributes<HTMLTableCellElement> & {
    numeric?: boolean;
  },
) {
  return (
    <th
      scope="col"
      className={cn(
        "px-2 py-1.5 font-medium first:pl-0 last:pr-0",
        numeric && "text-right",
        className,
      )}
      {...rest}
    />
  );
}

/** A body cell; `numeric` right-aligns it with tabular digits (values with their units). */
export function Cell(
  { numeric = false, className, ...rest }: TdHTMLAttributes<HTMLTableCellElement> & {
    numeric?: boolean;
  },
) {
  return (
    <td
      className={cn("px-2 py-1.5 first:pl-0 last:pr-0", numeric && "tabular text-right", className)}
      {...rest}
    />
  );
}
