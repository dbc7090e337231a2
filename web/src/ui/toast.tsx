import * as ToastPrimitive from "@radix-ui/react-toast";
import { CircleCheck, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "./cn.ts";

/** One short message shown at the bottom left (spec 8.1 places error toasts there). */
export function Toast({
  open,
  onOpenChange,
  tone = "success",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tone?: "success" | "error";
  children: ReactNode;
}) {
  const { t } = useTranslation("common");
  return (
    <ToastPrimitive.Provider
      swipeDirection="left"
      duration={tone === "error" ? 8000 : 4000}
      label={t("toast.label")}
    >
      <ToastPrimitive.Root
        open={open}
        onOpenChange={onOpenChange}
        type={tone === "error" ? "foreground" : "background"}
        className={cn(
          "flex items-center gap-2 rounded-md border px-3 py-2 text-sm shadow-lg",
          tone === "error"
            ? "border-state-critical bg-state-critical-soft text-foreground"
            : "border-state-ok bg-state-ok-soft text-foreground",
        )}
      >
        {tone === "error"
          ? <TriangleAlert aria-hidden className="size-4 shrink-0 text-state-critical" />
          : <CircleCheck aria-hidden className="size-4 shrink-0 text-state-ok" />}
        <ToastPrimitive.Description>{children}</ToastPrimitive.Description>
      </ToastPrimitive.Root>
      <ToastPrimitive.Viewport
        label={t("toast.region")}
        className="fixed bottom-10 left-4 z-50 flex w-96 max-w-[90vw] flex-col gap-2 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}
