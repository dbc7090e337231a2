/** Placeholder conversion for texts written with single braces (`{limit}`), as in the spec. */

/** Rewrites `{name}` to i18next's `{{name}}`; existing `{{name}}` stay as they are. */
export function toI18nextPlaceholders(text: string): string {
  return text.replace(
    /\{\{(\w+)\}\}|\{(\w+)\}/g,
    (match, double?: string, single?: string) => double ? match : `{{${single}}}`,
  );
}

/** Applies {@link toI18nextPlaceholders} to every string of a nested resource object. */
export function convertResource(value: unknown): unknown {
  if (typeof value === "string") return toI18nextPlaceholders(value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, convertResource(v)]),
  );
}
