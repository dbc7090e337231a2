import assert from "node:assert/strict";
import { helpLinks } from "./help-links.ts";

Deno.test("helpLinks() opens the English book with the documentation key as a query parameter", () => {
  const links = helpLinks({
    baseUrl: "/help",
    language: "en",
    documentationKey: "demo",
    page: "grid-monitoring",
  });
  assert.deepEqual(links, {
    currentPage: "/help/en/grid-monitoring.html?key=demo",
    faq: "/help/en/faq.html?key=demo",
    troubleshooting: "/help/en/troubleshooting.html?key=demo",
    general: "/help/en/index.html?key=demo",
    about: "/help/en/about.html?key=demo",
  });
});

Deno.test("helpLinks() opens the French book for French users and keeps the section anchor", () => {
  const links = helpLinks({
    baseUrl: "/help/",
    language: "fr",
    documentationKey: null,
    page: "visual-statistics",
    anchor: "compare",
  });
  assert.equal(links.currentPage, "/help/fr/visual-statistics.html#compare");
  assert.equal(links.faq, "/help/fr/faq.html");
});

Deno.test("helpLinks() points the current page at the general documentation when there is none", () => {
  const links = helpLinks({
    baseUrl: "/help",
    language: "en",
    documentationKey: "a b",
    page: null,
  });
  assert.equal(links.currentPage, "/help/en/index.html?key=a%20b");
});
