#!/usr/bin/env node
// agentlines view <file|folder> [--port N] [--parser file.js] [--no-open]
//
// The run viewer on a log or a folder of logs, served from this package on 127.0.0.1 only
// (the page and its worker under the viewer's strict CSPs; docs/viewer.md): a file opens as
// its run, a folder as the list of its logs (newest first, with dates, prompts, tokens and
// cost). --parser serves your own ui-parser file (a baked one, say) and reads the log with it.
// Nothing leaves the machine; Ctrl-C stops.
import { existsSync, statSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const USAGE = "usage: agentlines view <file|folder> [--port N] [--parser file.js] [--no-open]";

function fail(why, code = 2) {
  console.error(`agentlines: ${why}`);
  process.exit(code);
}

const args = process.argv.slice(2);
if (args[0] === "--help" || args[0] === "-h" || args.length === 0) {
  console.log(`${USAGE}\n\nThe run viewer on a log or a folder of logs, on 127.0.0.1 (nothing leaves the machine).`);
  process.exit(args.length === 0 ? 2 : 0);
}
// The npm package's `agentlines` has the viewer only; `parse`, `stats` and the rest are the
// native CLI's (docs/cli.md), which a global npm install would otherwise seem to hide.
if (args[0] !== "view") fail(`unknown command ${JSON.stringify(args[0])}: the npm package's agentlines has "view"; parse, stats and the other commands are the native CLI's (cargo install --path cli in the agentlines source)\n${USAGE}`);
let target = null, port = 0, parser = null, open = true;
for (let i = 1; i < args.length; i++) {
  const a = args[i];
  const value = () => (i + 1 < args.length ? args[++i] : fail(`${a} wants a value\n${USAGE}`));
  if (a === "--port") port = Number(value());
  else if (a === "--parser") parser = value();
  else if (a === "--no-open") open = false;
  else if (a.startsWith("--")) fail(`unknown option ${a}\n${USAGE}`);
  else if (target === null) target = a;
  else fail(`one file or folder at a time\n${USAGE}`);
}
if (target === null) fail(`which log? ${USAGE}`);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port wants a number from 0 to 65535`);
const path = resolve(target);
if (!existsSync(path)) fail(`${target}: no such file or folder`, 1);
const folder = statSync(path).isDirectory();
if (parser !== null) {
  parser = resolve(parser);
  if (!existsSync(parser) || !/\.c?js$/.test(parser)) fail(`--parser: ${parser} is not a .js or .cjs file`, 1);
}

const { startViewerServer, safeName } = await import(new URL("../../viewer/serve.mjs", import.meta.url).href);
const server = await startViewerServer({ port, host: "127.0.0.1", root: pkg, www: join(pkg, "viewer"), log: folder ? null : path, folder: folder ? path : null, parser })
  .catch((e) => fail(`could not listen on 127.0.0.1:${port}: ${e.message}`, 1));
const q = new URLSearchParams();
if (parser) q.set("parser", `parser/${safeName(parser)}`);
if (folder) q.set("folder", "1");
else q.set("log", `log/${safeName(path)}`);
const url = `${server.url}/www/?${q}`;
console.log(`agentlines run viewer: ${url}\n(serving ${folder ? "the logs in " : ""}${path} on 127.0.0.1 only; Ctrl-C stops)`);
if (open) {
  // Windows: the URL handler called directly, not `cmd /c start`, whose command line would
  // end the URL at its first `&` (`?parser=…&log=…`).
  const [cmd, ...rest] = process.platform === "darwin" ? ["open"] : process.platform === "win32" ? ["rundll32", "url.dll,FileProtocolHandler"] : ["xdg-open"];
  try {
    spawn(cmd, [...rest, url], { stdio: "ignore", detached: true }).on("error", () => {}).unref();
  } catch { /* no browser to open: the URL is printed */ }
}
process.on("SIGINT", () => server.close().then(() => process.exit(0)));
