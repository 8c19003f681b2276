// json.dumps as CPython writes it by default (", " and ": " separators, and with
// ensureAscii every non-ASCII character as \uXXXX), so the Node ports of the course servers
// put the same bytes on the wire as the Python originals did. Numbers are written as
// JavaScript does; the servers only echo integers (ids) and strings.
"use strict";

function dumps(v, ensureAscii) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") {
    const s = JSON.stringify(v);
    return ensureAscii ? s.replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : s;
  }
  if (typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map((x) => dumps(x, ensureAscii)).join(", ") + "]";
  return "{" + Object.keys(v).map((k) => dumps(k, ensureAscii) + ": " + dumps(v[k], ensureAscii)).join(", ") + "}";
}

// pyFloat writes a number as Python's str() of a float: 2 is "2.0".
function pyFloat(x) {
  return Number.isInteger(x) && Math.abs(x) < 1e16 ? x.toFixed(1) : String(x);
}

module.exports = { dumps, pyFloat };
