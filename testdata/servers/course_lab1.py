#!/usr/bin/env python3
"""The first lab of an MCP course, as students write it (issue 24): stdlib only, framed
LSP-style ("Content-Length: N\r\n\r\n" then N bytes of JSON, both ways), read with blocking
reads. A line it does not understand (the newline JSON MCP's stdio actually uses) is taken
for a header and skipped, and the server waits for the blank line that ends the headers,
saying nothing: the silent server mcp-inspect must explain.

Tools: conjugate (verb, tense) and lookup_spanish (word). It exits when stdin closes.
"""

import json
import sys

CONJUGATIONS = {("eat", "past"): "ate", ("eat", "present"): "eats", ("go", "past"): "went"}
SPANISH = {"ate": "comió", "eats": "come", "went": "fue"}

TOOLS = [
    {
        "name": "conjugate",
        "description": "Conjugate an English verb (third person singular)",
        "inputSchema": {
            "type": "object",
            "properties": {
                "verb": {"type": "string"},
                "tense": {"type": "string", "enum": ["past", "present"]},
            },
            "required": ["verb", "tense"],
        },
    },
    {
        "name": "lookup_spanish",
        "description": "Translate an English word form into Spanish",
        "inputSchema": {
            "type": "object",
            "properties": {"word": {"type": "string"}},
            "required": ["word"],
        },
    },
]


def read_message():
    headers = {}
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.decode("utf-8").strip()
        if line == "":
            if "content-length" in headers:
                break
            continue
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = sys.stdin.buffer.read(int(headers["content-length"]))
    return json.loads(body)


def send(message):
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body))
    sys.stdout.buffer.write(body)
    sys.stdout.buffer.flush()


def text(s):
    return {"content": [{"type": "text", "text": s}]}


def call(name, args):
    if name == "conjugate":
        form = CONJUGATIONS.get((args.get("verb"), args.get("tense")))
        if form is None:
            return {"isError": True, **text("I don't know that verb")}
        return text(form)
    if name == "lookup_spanish":
        return text(SPANISH.get(args.get("word"), "?"))
    raise KeyError(name)


def main():
    while True:
        msg = read_message()
        if msg is None:
            return
        if "id" not in msg:
            continue
        method = msg.get("method")
        if method == "initialize":
            result = {
                "protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "spanish-lab", "version": "0.1"},
            }
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            try:
                result = call(msg["params"]["name"], msg["params"].get("arguments") or {})
            except KeyError:
                send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32602, "message": "unknown tool"}})
                continue
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "method not found"}})
            continue
        send({"jsonrpc": "2.0", "id": msg["id"], "result": result})


if __name__ == "__main__":
    main()
