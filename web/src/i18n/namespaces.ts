/** Namespaces of the web app; `errors` comes from the server's catalogue. */
export const NAMESPACES = [
  "common",
  "shell",
  "modules",
  "notifications",
  "user-settings",
  "settings",
  "users",
  "infrastructure",
  "metering",
  "cells",
  "statistics",
  "grid-monitoring",
  "io-monitoring",
  "scada",
] as const;
