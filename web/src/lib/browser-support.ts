/**
 * Browser detection for the unsupported-browser page of spec 2.2: Chrome 74+, Firefox 78+,
 * Edge (Chromium) 80+ and Safari 15+ are supported. Unknown engines are let through: the
 * page is a warning for known-old browsers, not an allow-list.
 */

/** The browsers the product names as supported. */
export type BrowserName = "chrome" | "firefox" | "edge" | "safari";

/** Minimum major versions per supported browser. */
export const MINIMUM_VERSIONS: Readonly<Record<BrowserName, number>> = {
  chrome: 74,
  firefox: 78,
  edge: 80,
  safari: 15,
};

/** What the user agent says about the browser. */
export interface BrowserCheck {
  /** Detected browser, `legacy` for Internet Explorer and EdgeHTML, `unknown` otherwise. */
  browser: BrowserName | "legacy" | "unknown";
  /** Major version, or `null` when not found. */
  version: number | null;
  supported: boolean;
}

function major(ua: string, pattern: RegExp): number | null {
  const match = pattern.exec(ua);
  if (!match?.[1]) return null;
  const value = Number.parseInt(match[1], 10);
  return Number.isFinite(value) ? value : null;
}

function verdict(browser: BrowserName, version: number | null): BrowserCheck {
  return { browser, version, supported: version !== null && version >= MINIMUM_VERSIONS[browser] };
}

/** Classifies a user agent string. Order matters: Edge and iOS browsers also say Chrome/Safari. */
export function checkBrowser(userAgent: string): BrowserCheck {
  const ua = userAgent;
  if (/MSIE |Trident\//.test(ua) || /\bEdge\/\d+/.test(ua)) {
    return { browser: "legacy", version: null, supported: false };
  }
  if (/\bEdg(A|iOS)?\/\d+/.test(ua)) return verdict("edge", major(ua, /\bEdg(?:A|iOS)?\/(\d+)/));
  // Every browser on iOS is WebKit: judge it by the iOS version, like Safari.
  if (/\b(CriOS|FxiOS)\/\d+/.test(ua)) return verdict("safari", major(ua, /\bOS (\d+)[_.]\d/));
  if (/\bFirefox\/\d+/.test(ua)) return verdict("firefox", major(ua, /\bFirefox\/(\d+)/));
  if (/\b(Chrome|Chromium)\/\d+/.test(ua)) {
    return verdict("chrome", major(ua, /\b(?:Chrome|Chromium)\/(\d+)/));
  }
  if (/\bSafari\/\d+/.test(ua) && /\bVersion\/\d+/.test(ua)) {
    return verdict("safari", major(ua, /\bVersion\/(\d+)/));
  }
  return { browser: "unknown", version: null, supported: true };
}

/** True unless the user agent names a browser older than the supported minimum. */
export function isSupportedBrowser(userAgent: string): boolean {
  return checkBrowser(userAgent).supported;
}
