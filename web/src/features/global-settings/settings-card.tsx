import type { ReactNode } from "react";

/** One titled section of a settings screen; `id` makes it a URL anchor. */
export function SettingsCard({
  id,
  title,
  description,
  children,
}: {
  id?: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={id ? `${id}-title` : undefined}
      className="scroll-mt-4 rounded-lg border bg-surface"
    >
      <header className="border-b px-4 py-2.5">
        <h2 id={id ? `${id}-title` : undefined} className="text-sm font-semibold">{title}</h2>
        {description ? <p className="text-xs text-muted-foreground">{description}</p> : null}
      </header>
      <div className="flex flex-col gap-3 px-4 py-3">{children}</div>
    </section>
  );
}
