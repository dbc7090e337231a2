/** The handle between a list and a map: drag it, or focus it and use the arrow keys. */
export const MIN_LIST = 380;

export function Splitter(
  { width, onWidth, label }: { width: number; onWidth: (w: number) => void; label: string },
) {
  const max = () => Math.max(MIN_LIST, window.innerWidth - 520);
  const clamp = (w: number) => Math.min(max(), Math.max(MIN_LIST, w));
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(width)}
      aria-valuemin={MIN_LIST}
      tabIndex={0}
      className="group flex w-3 shrink-0 cursor-col-resize items-center justify-center focus-visible:outline-none"
      onPointerDown={(e) => {
        const startX = e.clientX;
        const startW = width;
        const target = e.currentTarget;
        target.setPointerCapture(e.pointerId);
        const move = (m: PointerEvent) => onWidth(clamp(startW + m.clientX - startX));
        const up = () => {
          target.removeEventListener("pointermove", move);
          target.removeEventListener("pointerup", up);
        };
        target.addEventListener("pointermove", move);
        target.addEventListener("pointerup", up);
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft") onWidth(clamp(width - 32));
        else if (e.key === "ArrowRight") onWidth(clamp(width + 32));
        else return;
        e.preventDefault();
      }}
    >
      <span className="h-10 w-1 rounded-full bg-border transition-colors group-hover:bg-primary group-focus-visible:bg-ring" />
    </div>
  );
}
