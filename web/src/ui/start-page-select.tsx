/**
 * The start-page choice of user management and My Profile: the configured default, the pages
 * the user's access reaches (web/src/lib/user-rules.ts) among the built modules, and a stored
 * page no longer reachable or not built.
 */
import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { Select } from "./input.tsx";

export function StartPageSelect({
  value,
  onChange,
  startPages,
  defaultLabel,
  ...control
}: Omit<ComponentProps<"select">, "value" | "onChange"> & {
  value: string | null;
  onChange: (path: string | null) => void;
  /** Pages with `built: false` (a module not built yet) are not offered. */
  startPages: readonly { id: string; path: string; built?: boolean }[];
  /** The empty choice: the configured default start page. */
  defaultLabel: string;
}) {
  const { t } = useTranslation("modules");
  const offered = startPages.filter((page) => page.built !== false);
  return (
    <Select
      {...control}
      value={value ?? ""}
      onChange={(e) => onChange(e.target.value || null)}
    >
      <option value="">{defaultLabel}</option>
      {value && !offered.some((s) => s.path === value)
        ? <option value={value}>{value}</option>
        : null}
      {offered.map((page) => (
        <option key={page.path} value={page.path}>
          {t(`${page.id}.title`)} ({page.path})
        </option>
      ))}
    </Select>
  );
}
