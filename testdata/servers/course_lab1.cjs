// The first lab of an MCP course, as students write it (issue 24), ported from the
// stdlib-only Python original so the tests need no python3: framed LSP-style
// ("Content-Length: N\r\n\r\n" then N bytes of JSON, both ways), read with blocking reads.
// A line it does not understand (the newline JSON MCP's stdio actually uses) is taken for a
// header and skipped, and the server waits for the blank line that ends the headers, saying
// nothing: the silent server mcp-inspect must explain.
//
// Tools: conjugate (verb, tense) and lookup_spanish (word). It exits when stdin closes.
"use strict";
const fs = require("fs");
const { dumps } = require("./pyjson.cjs");
const stdin = require("./stdin.cjs");

const CONJUGATIONS = { "eat/past": "ate", "eat/present": "eats", "go/past": "went" };
const SPANISH = { ate: "comió", eats: "come", went: "fue" };

const TOOLS = [
  {
    name: "conjugate",
    description: "Conjugate an English verb (third person singular)",
    inputSchema: {
      type: "object",
      properties: { verb: { type: "string" }, tense: { type: "string", enum: ["past", "present"] } },
      required: ["verb", "tense"],
    },
  },
  {
    name: "lookup_spanish",
    description: "Translate an English word form into Spanish",
    inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  },
];

function readMessage() {
  const headers = {};
  for (;;) {
    const raw = stdin.readline();
    if (raw.length === 0) return null;
    const line = raw.toString("utf8").trim();
    if (line === "") {
      if ("content-length" in headers) break;
      continue;
    }
    const i = line.indexOf(":");
    if (i >= 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return JSON.parse(stdin.read(parseInt(headers["content-length"], 10)).toString("utf8"));
}

function send(message) {
  const body = Buffer.from(dumps(message, false), "utf8");
  fs.writeSync(1, `Content-Length: ${body.length}\r\n\r\n`);
  fs.writeSync(1, body);
}

function text(s) {
  return { content: [{ type: "text", text: s }] };
}

class UnknownTool extends Error {}

function call(name, args) {
  if (name === "conjugate") {
    const form = CONJUGATIONS[`${args.verb}/${args.tense}`];
    if (form === undefined) return { isError: true, ...text("I don't know that verb") };
    return text(form);
  }
  if (name === "lookup_spanish") return text(Object.hasOwn(SPANISH, args.word) ? SPANISH[args.word] : "?");
  throw new UnknownTool(name);
}

for (;;) {
  const msg = readMessage();
  if (msg === null) break;
  if (!("id" in msg)) continue;
  const method = msg.method;
  let result;
  if (method === "initialize") {
    result = {
      protocolVersion: msg.params.protocolVersion ?? "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: { name: "spanish-lab", version: "0.1" },
    };
  } else if (method === "tools/list") {
    result = { tools: TOOLS };
  } else if (method === "tools/call") {
    try {
      result = call(msg.params.name, msg.params.arguments || {});
    } catch (e) {
      if (!(e instanceof UnknownTool)) throw e;
      send({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "unknown tool" } });
      continue;
    }
  } else if (method === "ping") {
    result = {};
  } else {
    send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "method not found" } });
    continue;
  }
  send({ jsonrpc: "2.0", id: msg.id, result });
}
