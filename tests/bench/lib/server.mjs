// Starts `wrangler dev` (the wrangler the vite plugin depends on) on loopback and waits until it answers.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { BIN, ROOT, log, sleep } from "./util.mjs";

export async function startWrangler({ name, config, port, persistTo, readyPath = "/", logFile }) {
  // A server still on the port (left by a crashed run, or stopped just before and not yet gone) would answer the
  // readiness check below in the new one's place: a run measured its bare room's sockets against such a server.
  await portFree(port, name);
  const args = ["dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo,
    "--log-level", "warn", "--show-interactive-dev-session=false", "--inspector-port", String(port + 1000)];
  const child = spawn(`${BIN}/wrangler`, args, {
    cwd: ROOT,
    env: { ...process.env, PATH: `${BIN}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false", CI: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => { output += d; logFile?.write(d); });
  child.stderr.on("data", (d) => { output += d; logFile?.write(d); });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name}: wrangler dev exited ${child.exitCode}\n${output.slice(-3000)}`);
    try {
      const res = await fetch(base + readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      log(`${name} ready on ${base}`);
      return { base, child, stop: () => stop(child) };
    } catch {
      await sleep(300);
    }
  }
  stop(child);
  throw new Error(`${name}: not ready after 90 s\n${output.slice(-3000)}`);
}

async function stop(child) {
  if (child.exitCode !== null) return;
  try { process.kill(-child.pid, "SIGTERM"); } catch { /* already gone */ }
  for (let i = 0; i < 30 && child.exitCode === null; i++) await sleep(100);
  if (child.exitCode === null) try { process.kill(-child.pid, "SIGKILL"); } catch { /* already gone */ }
}

/** Waits until nothing listens on `port` on loopback (up to 15 s). */
async function portFree(port, name) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const listening = await new Promise((resolve) => {
      const socket = connect({ host: "127.0.0.1", port }, () => { socket.destroy(); resolve(true); });
      socket.on("error", () => resolve(false));
    });
    if (!listening) return;
    await sleep(200);
  }
  throw new Error(`${name}: port ${port} still in use after 15 s`);
}
