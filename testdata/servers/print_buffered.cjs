// A stdio MCP server as people write it in Python: print() without flush, so on a pipe its
// stdout is block-buffered (8 KiB) and every answer after the handshake (flushed by hand)
// waits in the buffer until it fills or the server exits (mcp-inspect issue 24).
//
// Ported from print_buffered.py so the tests need no python3. It keeps CPython's stdout
// rules: block-buffered in 8 KiB unless PYTHONUNBUFFERED is set to a non-empty value, and
// flushed at exit. internal/testservers runs it with node under the name python3, because
// mcp-inspect recognises a Python server (and offers PYTHONUNBUFFERED=1) by the command's
// name.
"use strict";
const fs = require("fs");
const stdin = require("./stdin.cjs");

const BUFFER_SIZE = 8192;
const unbuffered = (process.env.PYTHONUNBUFFERED ?? "") !== "";
let pending = Buffer.alloc(0);

function flush() {
  if (pending.length > 0) fs.writeSync(1, pending);
  pending = Buffer.alloc(0);
}

// print writes a line as print() does: into the buffer, which goes out when full.
function print(s) {
  pending = Buffer.concat([pending, Buffer.from(s + "\n", "utf8")]);
  if (unbuffered || pending.length >= BUFFER_SIZE) flush();
}

for (;;) {
  const line = stdin.readline();
  if (line.length === 0) break;
  const m = JSON.parse(line.toString("utf8"));
  if (!("id" in m)) continue;
  if (m.method === "initialize") {
    const r = { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "buf", version: "1" } };
    print(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: r }));
    flush(); // the handshake is flushed; nothing after
  } else if (m.method === "tools/list") {
    print(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "pad", inputSchema: { type: "object" } }] } }));
  } else if (m.method === "tools/call") {
    print(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "x".repeat(1500) }] } }));
  } else {
    print(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: {} }));
  }
}
flush();
