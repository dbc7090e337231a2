/**
 * Chart colours. Phase colours follow the spec (L1 red, L2 blue, L3 green, N orange) through the
 * theme tokens of web/src/styles.css; the 15 compare colours are a fixed palette of mid-luminance
 * hues that stay distinguishable on the light and the dark background.
 */

export type Phase = "L1" | "L2" | "L3" | "N";

export const PHASE_COLORS: Readonly<Record<Phase, string>> = {
  L1: "var(--phase-l1)",
  L2: "var(--phase-l2)",
  L3: "var(--phase-l3)",
  N: "var(--phase-n)",
};

const COMPARE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#59a14f",
  "#b07aa1",
  "#76b7b2",
  "#edc948",
  "#ff9da7",
  "#9c755f",
  "#1f9e89",
  "#d37295",
  "#8cd17d",
  "#a0cbe8",
  "#ffbe7d",
  "#bab0ac",
] as const;

export const COMPARE_COLOR_COUNT = COMPARE.length;

/** The compare colour of the k-th curve (0-based); wraps after 15. */
export function compareColor(index: number): string {
  return COMPARE[((index % COMPARE.length) + COMPARE.length) % COMPARE.length]!;
}

/**
 * A CSS colour usable on a canvas: `var(--name)` is looked up on the document element, with an
 * optional fallback; anything else is returned as it is.
 */
export function resolveColor(color: string, style: Pick<CSSStyleDeclaration, "getPropertyValue">) {
  const match = /^var\((--[\w-]+)\s*(?:,\s*(.+))?\)$/.exec(color.trim());
  if (!match) return color;
  return style.getPropertyValue(match[1]!).trim() || match[2]?.trim() || "#888888";
}
