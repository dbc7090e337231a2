import type { ReactNode } from "react";

/** A card of My Profile & Settings with its title. */
export function Card(
  { id, title, children, className }: {
    id?: string;
    title: string;
    children: ReactNode;
    className?: string;
  },
) {
  return (
    <section
      id={id}
      aria-label={title}
      className={`scroll-mt-16 rounded-lg border bg-surface ${className ?? ""}`}
    >
      <h2 className="border-b px-4 py-2.5 text-sm font-semibold">{title}</h2>
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}
