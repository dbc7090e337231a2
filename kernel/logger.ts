/** Structured JSON logs, one line per record, with optional bound fields (request id, module). */

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger writing JSON lines; `child` binds fields such as `requestId` or `module`. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Creates a logger; `write` defaults to stdout/stderr and exists so tests can capture lines. */
export function createLogger(
  level: LogLevel = "info",
  bound: Record<string, unknown> = {},
  write: (level: LogLevel, line: string) => void = defaultWrite,
): Logger {
  const log = (l: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    const record = { time: new Date().toISOString(), level: l, msg, ...bound, ...fields };
    write(l, JSON.stringify(record, errorReplacer));
  };
  return {
    debug: (m, f) => log("debug", m, f),
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
    child: (fields) => createLogger(level, { ...bound, ...fields }, write),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  return value;
}

function defaultWrite(level: LogLevel, line: string): void {
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}
