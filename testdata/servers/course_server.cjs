// A tiny MCP server written the way MCP courses teach it (issue #14), ported from the
// stdlib-only Python original so the tests need no python3: framed LSP-style,
// "Content-Length: N\r\n\r\n" then N bytes of JSON, both ways, read with blocking reads and
// written as Python's json.dumps writes. MCP's stdio transport is newline-delimited JSON,
// so this is a violation mcp-inspect must recognise at once, and talk to with
// --framing content-length.
//
// Four tools: add (numbers), echo (text), divide (a tool error, isError: true, on division
// by zero) and lookup (a JSON-RPC -32602 error for an unknown key). A message that does not
// start with a Content-Length header gets a -32700 parse error, so framed, as such servers
// answer.
"use strict";
const fs = require("fs");
const { dumps, pyFloat } = require("./pyjson.cjs");
const stdin = require("./stdin.cjs");

const TOOLS = [
  {
    name: "add",
    description: "Add two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  },
  {
    name: "echo",
    description: "Echo text back",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "divide",
    description: "Divide a by b; dividing by zero is a tool error",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  },
  {
    name: "lookup",
    description: "Look up a word in a small dictionary; an unknown word is an invalid-params error",
    inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  },
];

const WORDS = { mcp: "Model Context Protocol", lsp: "Language Server Protocol" };

class InvalidParams extends Error {}

function send(message) {
  const body = Buffer.from(dumps(message, true), "utf8");
  fs.writeSync(1, `Content-Length: ${body.length}\r\n\r\n`);
  fs.writeSync(1, body);
}

// readMessage reads one framed message; null at end of input, "" for a malformed one.
function readMessage() {
  const headers = {};
  let first = true;
  for (;;) {
    const raw = stdin.readline();
    if (raw.length === 0) return null;
    const line = raw.toString("utf8").trim();
    if (!line) {
      if (first) continue;
      break;
    }
    const i = line.indexOf(":");
    const name = (i < 0 ? line : line.slice(0, i)).trim().toLowerCase();
    if (first && (i < 0 || name !== "content-length")) return "";
    first = false;
    headers[name] = i < 0 ? "" : line.slice(i + 1).trim();
  }
  const length = Number(headers["content-length"]);
  if (!/^\s*[+-]?\d+\s*$/.test(headers["content-length"] || "")) return "";
  return stdin.read(length).toString("utf8");
}

function text(s) {
  return { content: [{ type: "text", text: s }] };
}

function callTool(name, args) {
  if (name === "add") return text(String(args.a + args.b));
  if (name === "echo") return text(args.text ?? "");
  if (name === "divide") {
    if (args.b === 0) return { content: [{ type: "text", text: "cannot divide by zero" }], isError: true };
    return text(pyFloat(args.a / args.b));
  }
  if (name === "lookup") {
    const key = args.key ?? "";
    if (!Object.hasOwn(WORDS, key)) throw new InvalidParams("unknown key: " + key);
    return text(WORDS[key]);
  }
  throw new InvalidParams("unknown tool: " + name);
}

function handle(msg) {
  const method = msg.method;
  const params = msg.params || {};
  const id = msg.id;
  if (id === undefined || id === null) return; // a notification
  let result;
  try {
    if (method === "initialize") {
      result = {
        protocolVersion: params.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "course-server", version: "1.0.0" },
      };
    } else if (method === "ping") {
      result = {};
    } else if (method === "tools/list") {
      result = { tools: TOOLS };
    } else if (method === "tools/call") {
      result = callTool(params.name, params.arguments || {});
    } else {
      send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found: " + String(method) } });
      return;
    }
  } catch (e) {
    if (!(e instanceof InvalidParams)) throw e;
    send({ jsonrpc: "2.0", id, error: { code: -32602, message: e.message } });
    return;
  }
  send({ jsonrpc: "2.0", id, result });
}

for (;;) {
  const body = readMessage();
  if (body === null) break;
  let msg = null;
  try {
    msg = body ? JSON.parse(body) : null;
  } catch {
    msg = null;
  }
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    process.stderr.write("course-server: expected a Content-Length header\n");
    send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    continue;
  }
  handle(msg);
}
