/**
 * One uPlot instance in a container: sized to the container's width, rebuilt when its options or
 * the theme change, fed new data in place otherwise (a live refresh keeps zoom and hidden series).
 */
import { type RefObject, useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { resolveColor } from "./palette.ts";

/** Theme colours a canvas needs (CSS variables resolved). */
export interface CanvasTheme {
  background: string;
  foreground: string;
  muted: string;
  grid: string;
  resolve(color: string): string;
}

function readTheme(): CanvasTheme {
  const style = getComputedStyle(document.documentElement);
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    background: token("--surface", "#ffffff"),
    foreground: token("--foreground", "#1b2430"),
    muted: token("--muted-foreground", "#5f6b78"),
    grid: token("--border", "#d9dee4"),
    resolve: (color) => resolveColor(color, style),
  };
}

/** The current canvas theme; changes when the document's `dark` class toggles. */
export function useCanvasTheme(): CanvasTheme {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(readTheme()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * Mounts uPlot into `container`. `makeOptions` runs again when `optionsKey` changes (then the
 * chart is rebuilt); `data` changes only call setData, keeping the x zoom when `keepScale` is on.
 */
export function useUplot(
  container: RefObject<HTMLDivElement | null>,
  makeOptions: (width: number) => uPlot.Options,
  optionsKey: string,
  data: uPlot.AlignedData,
  keepScale: boolean,
): RefObject<uPlot | null> {
  const plot = useRef<uPlot | null>(null);
  const latest = useRef({ makeOptions, data, keepScale });
  latest.current = { makeOptions, data, keepScale };

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const width = Math.max(200, element.clientWidth);
    const chart = new uPlot(latest.current.makeOptions(width), latest.current.data, element);
    plot.current = chart;
    const observer = new ResizeObserver(() => {
      const next = Math.max(200, element.clientWidth);
      if (next !== chart.width) chart.setSize({ width: next, height: chart.height });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [container, optionsKey]);

  useEffect(() => {
    const chart = plot.current;
    if (chart && chart.data !== data) chart.setData(data, !latest.current.keepScale);
  }, [data]);

  return plot;
}
