/** Help Centre links of spec 2.4: current page, FAQ, troubleshooting, general documentation. */
import { helpLanguage } from "./language.ts";

/** The four links of the Help Centre menu. */
export interface HelpLinks {
  currentPage: string;
  faq: string;
  troubleshooting: string;
  general: string;
  /** The product's own about page (the footer's link when no vendor URL is configured). */
  about: string;
}

/**
 * Builds the links under `${baseUrl}/<en|fr|de|uk>/`, the book of the user's language. The
 * documentation key of the user's app_metadata travels as the `key` query parameter.
 */
export function helpLinks(options: {
  baseUrl: string;
  language: string;
  documentationKey: string | null;
  /** Help page of the current screen, `null` for the general documentation. */
  page: string | null;
  /** Section of the page, e.g. `compare` on visual statistics. */
  anchor?: string | null;
}): HelpLinks {
  const base = `${options.baseUrl.replace(/\/+$/, "")}/${helpLanguage(options.language)}`;
  const query = options.documentationKey
    ? `?key=${encodeURIComponent(options.documentationKey)}`
    : "";
  const link = (file: string, anchor?: string | null) =>
    `${base}/${file}${query}${anchor ? `#${encodeURIComponent(anchor)}` : ""}`;
  return {
    currentPage: options.page ? link(`${options.page}.html`, options.anchor) : link("index.html"),
    faq: link("faq.html"),
    troubleshooting: link("troubleshooting.html"),
    general: link("index.html"),
    about: link("about.html"),
  };
}
