#!/usr/bin/env node
// make host-e2e only: stands in for the `claude` command of the built-in `claude_local` adapter
// (engine "cli"), so the host's own Claude parser renders the same real log as ours.
// `--version` answers like Claude Code; any other call writes AGENTLINES_REPLAY_FILE to stdout
// (the prompt on stdin is not read) and exits 0.
import { createReadStream } from "node:fs";

const args = process.argv.slice(2);
if (args.includes("--version") || args.includes("-v")) {
  process.stdout.write("2.1.0 (Claude Code)\n");
  process.exit(0);
}
const file = process.env.AGENTLINES_REPLAY_FILE;
if (!file) {
  process.stderr.write("claude-replay: AGENTLINES_REPLAY_FILE is not set\n");
  process.exit(2);
}
createReadStream(file).on("error", (e) => { process.stderr.write(`claude-replay: ${e.message}\n`); process.exit(1); })
  .pipe(process.stdout);
