// The run viewer's local static server (node:http only).
//   node www/serve.mjs [--port N] [--host H]      (make serve; default 127.0.0.1:8377)
// Serves, read-only and from the repo root: /www/ (the viewer), /dist/ (the built parser)
// and /tests/fixtures/ (the bundled samples); /www/samples.json and /www/parsers.json are
// listed on the fly.
// Every response carries the strict page CSP. The worker script (/www/host-worker.js) gets
// its own policy: no network at all, plus 'unsafe-eval', because the host's loading rule is
// to evaluate the parser with the function constructor inside the worker (a dedicated
// worker loaded from a URL runs under the CSP of its own response, not the page's).
import http from "node:http";
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream";
import { readdir, realpath, stat } from "node:fs/promises";
import { join, extname, sep, basename } from "node:path";
import { fileURLToPath } from "node:url";
import { listSamples, listParsers, repoRoot } from "./build-samples.mjs";

export const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; object-src 'none'; base-uri 'none'";
// A second, additive policy on documents: DOM sinks (innerHTML & co.) refuse plain strings.
export const PAGE_TT_CSP = "require-trusted-types-for 'script'; trusted-types agentlines-viewer";
export const WORKER_CSP = "default-src 'none'; script-src 'unsafe-eval' 'wasm-unsafe-eval'; base-uri 'none'";
export const WORKER_PATH = "/www/host-worker.js";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".cjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8", ".jsonl": "text/plain; charset=utf-8",
  ".ndjson": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8",
  ".log": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8",
  ".png": "image/png", ".svg": "image/svg+xml", ".wasm": "application/wasm",
};

function headersFor(path, type) {
  const h = {
    "content-type": type,
    "content-security-policy": path === WORKER_PATH ? WORKER_CSP : PAGE_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cache-control": "no-store",
  };
  if (type.startsWith("text/html")) h["content-security-policy"] = [PAGE_CSP, PAGE_TT_CSP];
  return h;
}

function send(res, status, text, path = "") {
  const h = headersFor(path, "text/plain; charset=utf-8");
  res.writeHead(status, h).end(text);
}

/** The name a served file (`log`, `parser`) has in its URL: its own, with anything the page's
 * URL parameters refuse written `_`. */
export function safeName(path) {
  return basename(path).replace(/[^\w.-]/g, "_").replace(/\.{2,}/g, "_").replace(/^\.+/, "_") || "_";
}

/** The real path of `file` if it is a file inside the directory `dir`, else null. */
async function inside(dir, file) {
  let real, realDir;
  try {
    real = await realpath(file);
    realDir = await realpath(dir);
  } catch {
    return null;
  }
  if (!real.startsWith(realDir + sep)) return null;
  const st = await stat(real);
  return st.isFile() ? real : null;
}

/** Maps a URL path to a file under one of the mounts ({"/www/": dir, …}), or null. */
async function resolveFile(mounts, urlPath) {
  const mount = Object.keys(mounts).find((m) => urlPath.startsWith(m));
  if (!mount) return null;
  if (urlPath.split("/").some((seg) => seg === ".." || seg === ".")) return null;
  let file = join(mounts[mount], ...urlPath.slice(mount.length).split("/").filter(Boolean));
  if (urlPath.endsWith("/")) file = join(file, "index.html");
  return inside(mounts[mount], file);
}

/** A folder's logs for the page's folder view (`/folder/index.json`, with the folder's name):
 * [{path, size, lastModified}], paths relative to the folder, newest first, at most `max`,
 * symlinks not followed. */
export async function listFolder(dir, max = 5000) {
  const out = [];
  const walk = async (rel) => {
    let names;
    try {
      names = await readdir(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= max * 2) return;
      // Hidden folders and files (credentials, caches) are never listed nor served.
      if (d.name.startsWith(".")) continue;
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) await walk(r);
      else if (d.isFile() && LOG_FILE.test(d.name)) {
        let st;
        try {
          st = await stat(join(dir, r));
        } catch {
          continue; // gone since it was listed
        }
        if (st.size > 0) out.push({ path: r, size: st.size, lastModified: st.mtimeMs });
      }
    }
  };
  await walk("");
  return out.sort((a, b) => b.lastModified - a.lastModified).slice(0, max);
}
const LOG_FILE = /\.(jsonl|ndjson|log|txt|json)$/i;

/** Starts the server; resolves to { url, port, close() }. port 0 picks a free port. */
// DNS rebinding: a page on an attacker's name that resolves to 127.0.0.1 would reach this
// server with its own name in `Host`. Only an IP literal or `localhost`, with the port we
// listen on, is served; any other name gets 421.
export function hostAllowed(header, port) {
  if (typeof header !== "string") return false;
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d+))?$/.exec(header.trim().toLowerCase());
  if (m === null || Number(m[2] ?? 80) !== port) return false;
  return m[1] === "localhost" || m[1].startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(m[1]);
}

/**
 * `root`: where `dist/` and `tests/fixtures/` are (the repo, or the npm package); `www`: the
 * viewer's files (default `<root>/www`); `log`: one log file served at `/log/<its name>`;
 * `folder`: a directory whose logs are listed at `/folder/index.json` and served under
 * `/folder/`; `parser`: a parser file served at `/parser/<its name>` (`npx agentlines view`).
 */
export async function startViewerServer({ port = 8377, host = "127.0.0.1", root = repoRoot, www = join(root, "www"), log = null, folder = null, parser = null } = {}) {
  const mounts = { "/www/": www, "/dist/": join(root, "dist"), "/tests/fixtures/": join(root, "tests", "fixtures") };
  const routes = new Map();
  if (log) routes.set(`/log/${safeName(log)}`, log);
  if (parser) routes.set(`/parser/${safeName(parser)}`, parser);
  const server = http.createServer(async (req, res) => {
    if (!hostAllowed(req.headers.host, server.address().port)) {
      send(res, 421, "misdirected request: this server answers only to localhost or an IP address");
      return;
    }
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      send(res, 400, "bad request");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "read-only");
      return;
    }
    if (urlPath === "/" || urlPath === "/www") {
      res.writeHead(302, { location: "/www/", "content-security-policy": PAGE_CSP }).end();
      return;
    }
    try {
      if (urlPath === "/www/samples.json" || urlPath === "/www/parsers.json") {
        const body = JSON.stringify(urlPath.endsWith("samples.json") ? listSamples(root) : listParsers(root));
        res.writeHead(200, headersFor(urlPath, TYPES[".json"]));
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      if (folder && urlPath === "/folder/index.json") {
        const body = JSON.stringify({ folder: basename(folder), logs: await listFolder(folder) });
        res.writeHead(200, headersFor(urlPath, TYPES[".json"]));
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      // A served folder: only what its list shows (no hidden path, a log by its real name
      // too, so a symlink named .log cannot serve a page or a script).
      const inFolder = folder && urlPath.startsWith("/folder/");
      let file = routes.has(urlPath) ? routes.get(urlPath)
        : inFolder ? (LOG_FILE.test(urlPath) && !urlPath.split("/").some((seg) => seg.startsWith(".")) ? await resolveFile({ "/folder/": folder }, urlPath) : null)
        : await resolveFile(mounts, urlPath);
      if (file && inFolder && !LOG_FILE.test(file)) file = null;
      if (!file) {
        send(res, 404, "not found", urlPath);
        return;
      }
      // Logs are text whatever their name says; the rest by extension.
      const type = inFolder || urlPath.startsWith("/log/") ? TYPES[".txt"] : TYPES[extname(file)] ?? "application/octet-stream";
      // Streamed (a log may be gigabytes), exactly the size announced even if the file grows
      // meanwhile, the file closed when the client goes away. One byte range (`bytes=a-b`,
      // `bytes=a-`) is served alone: the page follows a growing log by its new bytes.
      const size = (await stat(file)).size;
      const range = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(String(req.headers.range ?? ""));
      let start = 0;
      let end = size - 1;
      const head = { ...headersFor(urlPath, type), "accept-ranges": "bytes" };
      if (range) {
        start = Number(range[1]);
        end = range[2] === "" ? size - 1 : Math.min(Number(range[2]), size - 1);
        if (start >= size || end < start) {
          res.writeHead(416, { ...head, "content-range": `bytes */${size}` });
          return res.end();
        }
        res.writeHead(206, { ...head, "content-length": String(end - start + 1), "content-range": `bytes ${start}-${end}/${size}` });
      } else res.writeHead(200, { ...head, "content-length": String(size) });
      if (req.method === "HEAD" || size === 0) return res.end();
      pipeline(createReadStream(file, { start, end }), res, () => {});
    } catch (e) {
      send(res, 500, "server error");
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${actual}`,
    port: actual,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
  };
  const port = Number(opt("--port", process.env.PORT ?? 8377));
  const host = opt("--host", "127.0.0.1");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error("usage: node www/serve.mjs [--port N] [--host H]");
    process.exit(2);
  }
  startViewerServer({ port, host }).then(
    (s) => console.log(`agentlines run viewer: ${s.url}/www/  (serving www/, dist/, tests/fixtures/; Ctrl-C stops)`),
    (e) => {
      console.error(`serve: ${e.message}`);
      process.exit(1);
    },
  );
}
