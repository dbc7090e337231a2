/**
 * A real capture on the loopback interface with Debian's dumpcap (Wireshark's capture tool), for
 * tests that want the frames as the kernel carried them rather than as a test client logged
 * them. Needs dumpcap and the right to capture (root or the wireshark group): `start` answers
 * null with the reason otherwise, and the test says it skipped.
 */

/** A running capture; `stop` ends it and answers the file once it is complete. */
export interface LoopbackCapture {
  path: string;
  stop(): Promise<string>;
}

/** Starts capturing TCP on `port` into `path`; null (and why) when capturing is not possible. */
export async function startLoopbackCapture(
  port: number,
  path: string,
): Promise<LoopbackCapture | { skipped: string }> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("dumpcap", {
      args: ["-i", "lo", "-f", `tcp port ${port}`, "-q", "-w", path],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { skipped: `dumpcap cannot run: ${(error as Error).message}` };
  }
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  // dumpcap says "Capturing on 'Loopback: lo'" once the filter is set.
  const deadline = Date.now() + 10_000;
  while (!said.includes("Capturing on")) {
    const timeout = new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()));
    const read = await Promise.race([reader.read(), timeout]);
    if (read === null || read.done) {
      try {
        child.kill("SIGKILL");
      } catch { /* ended already */ }
      await child.status;
      return { skipped: `dumpcap did not start capturing: ${said.trim() || "no answer"}` };
    }
    said += read.value;
  }
  // The rest of its output is drained so that it never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const read = await reader.read();
      if (read.done) return;
      said += read.value;
    }
  })();
  return {
    path,
    async stop() {
      child.kill("SIGINT");
      await child.status;
      await drained;
      return said;
    },
  };
}
