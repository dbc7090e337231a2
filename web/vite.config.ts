/**
 * Vite build of the web app: root web/, output web/dist. Every module screen is its own lazy
 * chunk (lazyRouteComponent); the libraries of the first screen are grouped in stable vendor
 * chunks so a release that changes only app code keeps them cached.
 */
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { API_PREFIXES } from "../kernel/api_prefixes.ts";
import { basemap } from "./basemap-plugin.ts";

const webDir = fileURLToPath(new URL(".", import.meta.url));
const repoDir = fileURLToPath(new URL("..", import.meta.url));
const backend = process.env.GRIDWATCH_BACKEND ?? "http://localhost:8080";

/**
 * What the web app may read outside web/: the modules' contracts, the kernel's contract, the
 * pure rule files the forms use as they are, and the server's error texts. The lint plugin's
 * `web-boundaries` rule names the same files (scripts/lint/boundaries_plugin.ts).
 */
const moduleDirs = readdirSync(`${repoDir}modules`).map((name) => `${repoDir}modules/${name}`);
const roomDirs = moduleDirs.flatMap((dir) =>
  readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())
    .map((e) => `${dir}/${e.name}`)
);
const serverFiles = [
  // Every module's contract and the rooms' parts it re-exports (modules/grid/cells/contract.ts).
  ...[...moduleDirs, ...roomDirs].map((dir) => `${dir}/contract.ts`)
    .filter((path) => existsSync(path)),
  `${repoDir}kernel/contract.ts`,
  `${repoDir}kernel/i18n`,
  `${repoDir}modules/users/password_policy.ts`,
  `${repoDir}modules/grid/structure/validation.ts`,
  `${repoDir}modules/grid/cells/onboarding_rules.ts`,
  `${repoDir}modules/customers/settings_rules.ts`,
];

/** Vendor groups for libraries used by the shell itself; feature-only libraries stay lazy. */
const VENDOR_GROUPS: { name: string; test: RegExp }[] = [
  { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: "router", test: /node_modules[\\/]@tanstack[\\/]/ },
  {
    name: "radix",
    test:
      /node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll[^\\/]*|aria-hidden|use-callback-ref|use-sidecar|react-style-singleton|get-nonce|detect-node-es|tslib)[\\/]/,
  },
  {
    name: "i18n",
    test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/,
  },
  { name: "oidc", test: /node_modules[\\/](oidc-client-ts|jwt-decode)[\\/]/ },
];

// Paths the dev and preview servers forward to the platform: the server's own prefix table.
const serverProxy = Object.fromEntries(
  API_PREFIXES.map((path) => [path, { target: backend, changeOrigin: false, ws: path === "/nsm" }]),
);

export default defineConfig({
  root: webDir,
  publicDir: "public",
  plugins: [react(), tailwindcss(), basemap()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The spec's supported browsers (2.2), so that they can at least parse the bundle.
    target: ["chrome74", "edge80", "firefox78", "safari15"],
    sourcemap: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // The contracts (modules/*/contract.ts) build zod schemas at the top level; the screens
      // that only read their constants or types need none of them. Calls on `z` have no side
      // effect but registering an id for the OpenAPI document, which the browser never reads.
      treeshake: { manualPureFunctions: ["z"] },
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS.map((group) => ({ ...group, priority: 10 })),
        },
      },
    },
  },
  server: {
    port: 5173,
    fs: { allow: [webDir, ...serverFiles, `${repoDir}node_modules`] },
    proxy: serverProxy,
  },
  preview: {
    port: 4173,
    proxy: serverProxy,
  },
});
