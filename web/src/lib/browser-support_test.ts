import assert from "node:assert/strict";
import { checkBrowser, isSupportedBrowser } from "./browser-support.ts";

const chrome = (v: string) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v} Safari/537.36`;
const firefox = (v: string) =>
  `Mozilla/5.0 (X11; Linux x86_64; rv:${v}) Gecko/20100101 Firefox/${v}`;
const edge = (v: string) => `${chrome(v)} Edg/${v}`;
const safari = (v: string) =>
  `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v} Safari/605.1.15`;

Deno.test("isSupportedBrowser() accepts Chrome 74 and refuses Chrome 73", () => {
  assert.equal(isSupportedBrowser(chrome("74.0.3729.169")), true);
  assert.equal(isSupportedBrowser(chrome("73.0.3683.103")), false);
  assert.equal(isSupportedBrowser(chrome("126.0.0.0")), true);
});

Deno.test("isSupportedBrowser() accepts Firefox 78 and refuses Firefox 77", () => {
  assert.equal(isSupportedBrowser(firefox("78.0")), true);
  assert.equal(isSupportedBrowser(firefox("77.0")), false);
});

Deno.test("isSupportedBrowser() judges Chromium Edge by its Edg version, not its Chrome version", () => {
  assert.equal(isSupportedBrowser(edge("80.0.361.48")), true);
  assert.equal(isSupportedBrowser(`${chrome("80.0.0.0")} Edg/79.0.309.71`), false);
  assert.deepEqual(checkBrowser(edge("80.0.361.48")), {
    browser: "edge",
    version: 80,
    supported: true,
  });
});

Deno.test("isSupportedBrowser() accepts Safari 15 and refuses Safari 14", () => {
  assert.equal(isSupportedBrowser(safari("15.0")), true);
  assert.equal(isSupportedBrowser(safari("14.1.2")), false);
});

Deno.test("isSupportedBrowser() judges iOS browsers by the iOS WebKit version", () => {
  const ios = (os: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${os} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1`;
  assert.equal(isSupportedBrowser(ios("16_2")), true);
  assert.equal(isSupportedBrowser(ios("14_8")), false);
});

Deno.test("isSupportedBrowser() refuses Internet Explorer and EdgeHTML", () => {
  assert.equal(
    isSupportedBrowser("Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko"),
    false,
  );
  assert.equal(isSupportedBrowser(`${chrome("70.0.3538.102")} Edge/18.18363`), false);
});

Deno.test("isSupportedBrowser() lets unknown user agents through", () => {
  assert.equal(isSupportedBrowser("curl/8.0"), true);
  assert.equal(checkBrowser("").browser, "unknown");
});
