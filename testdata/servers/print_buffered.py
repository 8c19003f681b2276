"""A stdio MCP server as people write it: print() without flush, so on a pipe its stdout
is block-buffered (8 KiB) and every answer after the handshake (flushed by hand) waits in
the buffer until it fills or the server exits (mcp-inspect issue 24)."""
import json
import sys

for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m["method"] == "initialize":
        r = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "buf", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}))
        sys.stdout.flush()  # the handshake is flushed; nothing after
    elif m["method"] == "tools/list":
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": [{"name": "pad", "inputSchema": {"type": "object"}}]}}))
    elif m["method"] == "tools/call":
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"content": [{"type": "text", "text": "x" * 1500}]}}))
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {}}))
