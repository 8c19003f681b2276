// Preload (node --require) that keeps a server on 127.0.0.1: a listen() given
// only a port (server-everything's app.listen(PORT)) would bind every
// interface; this adds the host 127.0.0.1. A listen() that names a host, a
// path (Unix socket) or a handle is left alone. Used by internal/testservers.
// Not for the conformance suite, which reads address().port right after
// listen(0): with a host given, listen() binds asynchronously.
'use strict';
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const portOnly = typeof args[0] === 'number' || /^\d+$/.test(String(args[0]));
  if (portOnly && typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  else if (args[0] && typeof args[0] === 'object' && !args[0].path && !args[0].host && !args[0].fd && !args[0]._handle) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};
