/** A list's pager: the range shown, previous and next page (texts of the common namespace). */
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";

export function Pager({ total, page, pageSize, onPage, label }: {
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** The pager's accessible name (default: "Pages"). */
  label?: string;
}) {
  const { t } = useTranslation("common");
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav
      aria-label={label ?? t("pager.label")}
      className="flex items-center justify-end gap-2 border-t px-3 py-2 text-xs text-muted-foreground"
    >
      <span className="tabular">{t("pager.range", { from, to, total })}</span>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("pager.previous")}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        <ChevronLeft aria-hidden />
      </Button>
      <span className="tabular">{t("pager.page", { page, pages })}</span>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("pager.next")}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}
