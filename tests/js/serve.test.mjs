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
