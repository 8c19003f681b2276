// Blocking reads of stdin, as Python's sys.stdin.buffer.readline() and .read(n) do: the
// course servers of issues 14 and 24 read one header line at a time and wait on each read,
// which is the fault (a silent server) that mcp-inspect must explain.
"use strict";
const fs = require("fs");

let buf = Buffer.alloc(0);
let eof = false;
const chunk = Buffer.alloc(65536);

// fill reads once more from fd 0, blocking; false at end of input.
function fill() {
  if (eof) return false;
  let n;
  for (;;) {
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
      break;
    } catch (e) {
      if (e.code === "EAGAIN") continue; // a non-blocking stdin: try again
      if (e.code === "EOF") { n = 0; break; }
      throw e;
    }
  }
  if (n === 0) {
    eof = true;
    return false;
  }
  buf = Buffer.concat([buf, chunk.subarray(0, n)]);
  return true;
}

// readline returns the next line with its "\n", or what is left at end of input ("" when
// nothing is).
function readline() {
  for (;;) {
    const i = buf.indexOf(10);
    if (i >= 0) {
      const line = buf.subarray(0, i + 1);
      buf = buf.subarray(i + 1);
      return line;
    }
    if (!fill()) {
      const rest = buf;
      buf = Buffer.alloc(0);
      return rest;
    }
  }
}

// read returns n bytes, or fewer at end of input.
function read(n) {
  while (buf.length < n && fill()) {}
  const out = buf.subarray(0, n);
  buf = buf.subarray(out.length);
  return out;
}

module.exports = { readline, read };
