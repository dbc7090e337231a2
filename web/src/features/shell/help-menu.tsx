import {
  BookOpen,
  CircleHelp,
  ExternalLink,
  FileText,
  LifeBuoy,
  MessageCircleQuestion,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { helpLinks } from "../../lib/help-links.ts";
import { moduleById } from "../../lib/modules.ts";
import { useRouteInfo } from "../../lib/route-info.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { Button } from "../../ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";

/** Help Centre: the product's own documentation, opened in a new window (spec 2.4). */
export function HelpMenu() {
  const { t, i18n } = useTranslation("shell");
  const { config, claims } = useSession();
  const { moduleId, section } = useRouteInfo();
  const links = helpLinks({
    baseUrl: config.helpBaseUrl,
    language: i18n.language,
    documentationKey: claims.documentationKey,
    page: moduleById(moduleId)?.helpPage ?? null,
    anchor: section ?? null,
  });
  const items = [
    { href: links.currentPage, icon: FileText, label: t("help.currentPage") },
    { href: links.faq, icon: MessageCircleQuestion, label: t("help.faq") },
    { href: links.troubleshooting, icon: LifeBuoy, label: t("help.troubleshooting") },
    { href: links.general, icon: BookOpen, label: t("help.general") },
  ];
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="header" size="icon" aria-label={t("help.label")}>
          <CircleHelp className="size-5!" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <DropdownMenuLabel>{t("help.label")}</DropdownMenuLabel>
        {items.map(({ href, icon: Icon, label }) => (
          <DropdownMenuItem key={label} asChild>
            <a
              href={href}
              target="_blank"
              rel="noopener"
              aria-label={`${label} ${t("help.newWindow")}`}
            >
              <Icon aria-hidden />
              <span className="flex-1">{label}</span>
              <ExternalLink aria-hidden className="size-3.5! text-muted-foreground" />
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
