#!/usr/bin/env python3
"""A tiny MCP server written the way MCP courses teach it (issue #14): stdlib only, and
framed LSP-style, "Content-Length: N\r\n\r\n" then N bytes of JSON, both ways. MCP's stdio
transport is newline-delimited JSON, so this is a violation mcp-inspect must recognise at
once, and talk to with --framing content-length.

Four tools: add (numbers), echo (text), divide (a tool error, isError: true, on division by
zero) and lookup (a JSON-RPC -32602 error for an unknown key). A message that does not start
with a Content-Length header gets a -32700 parse error, so framed, as such servers answer.
"""

import json
import sys

TOOLS = [
    {
        "name": "add",
        "description": "Add two numbers",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    },
    {
        "name": "echo",
        "description": "Echo text back",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    },
    {
        "name": "divide",
        "description": "Divide a by b; dividing by zero is a tool error",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
        },
    },
    {
        "name": "lookup",
        "description": "Look up a word in a small dictionary; an unknown word is an invalid-params error",
        "inputSchema": {
            "type": "object",
            "properties": {"key": {"type": "string"}},
            "required": ["key"],
        },
    },
]

WORDS = {"mcp": "Model Context Protocol", "lsp": "Language Server Protocol"}


class InvalidParams(Exception):
    pass


def send(message):
    body = json.dumps(message).encode("utf-8")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body))
    sys.stdout.buffer.write(body)
    sys.stdout.buffer.flush()


def read_message():
    """Reads one framed message; returns None at end of input, "" for a malformed one."""
    headers = {}
    first = True
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.decode("utf-8", "replace").strip()
        if not line:
            if first:
                continue
            break
        name, sep, value = line.partition(":")
        if first and (not sep or name.strip().lower() != "content-length"):
            return ""
        first = False
        headers[name.strip().lower()] = value.strip()
    try:
        length = int(headers["content-length"])
    except (KeyError, ValueError):
        return ""
    return sys.stdin.buffer.read(length).decode("utf-8")


def text(s):
    return {"content": [{"type": "text", "text": s}]}


def call_tool(name, args):
    if name == "add":
        return text(str(args["a"] + args["b"]))
    if name == "echo":
        return text(args.get("text", ""))
    if name == "divide":
        if args["b"] == 0:
            return {"content": [{"type": "text", "text": "cannot divide by zero"}], "isError": True}
        return text(str(args["a"] / args["b"]))
    if name == "lookup":
        key = args.get("key", "")
        if key not in WORDS:
            raise InvalidParams("unknown key: " + key)
        return text(WORDS[key])
    raise InvalidParams("unknown tool: " + name)


def handle(msg):
    method, params, mid = msg.get("method"), msg.get("params") or {}, msg.get("id")
    if mid is None:
        return  # a notification
    try:
        if method == "initialize":
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "course-server", "version": "1.0.0"},
            }
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            result = call_tool(params.get("name"), params.get("arguments") or {})
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found: " + str(method)}})
            return
    except InvalidParams as e:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": str(e)}})
        return
    send({"jsonrpc": "2.0", "id": mid, "result": result})


def main():
    while True:
        body = read_message()
        if body is None:
            return
        try:
            msg = json.loads(body) if body else None
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            print("course-server: expected a Content-Length header", file=sys.stderr)
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        handle(msg)


if __name__ == "__main__":
    main()
