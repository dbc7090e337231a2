/**
 * The grid map loaded on demand: maplibre is the largest library of the app, so a screen shows
 * its list at once and the map fills in when its chunk has arrived.
 */
import { type ComponentProps, lazy, Suspense } from "react";
import { cn } from "../ui/cn.ts";
import { Loader } from "../ui/loader.tsx";
import type { GridMap as GridMapComponent } from "./grid-map.tsx";

const GridMap = lazy(() => import("./grid-map.tsx").then((m) => ({ default: m.GridMap })));

/** {@link GridMapComponent} once loaded; a delayed spinner in its frame until then. */
export function LazyGridMap(props: ComponentProps<typeof GridMapComponent>) {
  return (
    <Suspense
      fallback={
        <div
          role="region"
          aria-label={props.label}
          aria-busy="true"
          data-testid="grid-map"
          data-ready="false"
          className={cn(
            "relative flex min-h-80 items-center justify-center rounded-lg border bg-surface-muted",
            props.className,
          )}
        >
          <Loader />
        </div>
      }
    >
      <GridMap {...props} />
    </Suspense>
  );
}
