// www/serve.mjs answers only requests addressed to it by IP or localhost (DNS rebinding).
import test from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { root } from "./host.mjs";

const { startViewerServer, hostAllowed } = await import(pathToFileURL(resolve(root, "www/serve.mjs")).href);

function get(port, host) {
  return new Promise((ok, fail) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/www/index.html", headers: { Host: host } }, (res) => {
      res.resume();
      res.on("end", () => ok(res.statusCode));
    });
    req.on("error", fail);
    req.end();
  });
}

test("a request under another name is refused; loopback names and IPs are served", async () => {
  const s = await startViewerServer({ port: 0 });
  try {
    assert.equal(await get(s.port, `127.0.0.1:${s.port}`), 200);
    assert.equal(await get(s.port, `localhost:${s.port}`), 200);
    assert.equal(await get(s.port, `attacker.example:${s.port}`), 421);
    assert.equal(await get(s.port, `localhost.attacker.example:${s.port}`), 421);
    assert.equal(await get(s.port, `127.0.0.1:${s.port + 1}`), 421, "another port");
  } finally {
    await s.close();
  }
  assert.equal(hostAllowed("[::1]:80", 80), true);
  assert.equal(hostAllowed("[::1]", 80), true);
  assert.equal(hostAllowed(undefined, 80), false);
  assert.equal(hostAllowed("a.b:80:80", 80), false);
});

test("a served folder (npx agentlines view): only its logs, as text; hidden paths and symlinked pages refused; a log's exact size", async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "al-serve-"));
  try {
    mkdirSync(join(dir, ".secret"));
    writeFileSync(join(dir, ".secret", "config.json"), '{"token":"x"}');
    writeFileSync(join(dir, "run.jsonl"), '{"type":"user"}\n');
    writeFileSync(join(dir, "page.html"), "<script>alert(1)</script>");
    symlinkSync(join(dir, "page.html"), join(dir, "evil.log"));
    const s = await startViewerServer({ port: 0, folder: dir });
    const fetchText = async (path) => {
      const r = await fetch(`${s.url}${path}`);
      return { status: r.status, type: r.headers.get("content-type"), len: r.headers.get("content-length"), body: await r.text() };
    };
    try {
      const list = JSON.parse((await fetchText("/folder/index.json")).body);
      assert.deepEqual(list.logs.map((l) => l.path), ["run.jsonl"], "no hidden file, no symlink, no page");
      const log = await fetchText("/folder/run.jsonl");
      assert.equal(log.status, 200);
      assert.match(log.type, /^text\/plain/);
      assert.equal(log.len, "16");
      assert.equal(log.body, '{"type":"user"}\n');
      assert.equal((await fetchText("/folder/.secret/config.json")).status, 404);
      assert.equal((await fetchText("/folder/evil.log")).status, 404, "a .log symlink to a page");
      assert.equal((await fetchText("/folder/page.html")).status, 404);
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a served log is read by byte range (the page follows a growing log by its new bytes)", async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "al-range-"));
  const log = join(dir, "run.jsonl");
  writeFileSync(log, "0123456789\n");
  const s = await startViewerServer({ port: 0, log });
  const url = `http://127.0.0.1:${s.port}/log/run.jsonl`;
  const at = (range, method = "GET") => fetch(url, { method, headers: range ? { range } : {} });
  try {
    let r = await at("bytes=2-5");
    assert.equal(r.status, 206);
    assert.equal(r.headers.get("content-range"), "bytes 2-5/11");
    assert.equal(await r.text(), "2345");
    r = await at("bytes=8-");
    assert.equal(await r.text(), "89\n");
    r = await at("bytes=5-99"); // past the end: to the end
    assert.equal(await r.text(), "56789\n");
    r = await at("bytes=11-");
    assert.equal(r.status, 416);
    assert.equal(r.headers.get("content-range"), "bytes */11");
    await r.arrayBuffer();
    r = await at("bytes=5-3"); // reversed
    assert.equal(r.status, 416);
    await r.arrayBuffer();
    r = await at("bytes=2-5", "HEAD"); // a range's headers, no body
    assert.equal(r.status, 206);
    assert.equal(r.headers.get("content-length"), "4");
    assert.equal(await r.text(), "");
    r = await at("bytes=0-1,4-5"); // several ranges: the whole file
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "0123456789\n");
    writeFileSync(log, "0123456789\nmore\n"); // it grew
    r = await at(null, "HEAD");
    assert.equal(r.headers.get("content-length"), "16");
    assert.equal(r.headers.get("accept-ranges"), "bytes");
    r = await at("bytes=11-15");
    assert.equal(await r.text(), "more\n");
    writeFileSync(log, ""); // emptied: any range is past its end
    r = await at("bytes=0-");
    assert.equal(r.status, 416);
    assert.equal(r.headers.get("content-range"), "bytes */0");
    await r.arrayBuffer();
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
