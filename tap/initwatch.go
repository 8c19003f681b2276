package tap

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// initWatch notices the host's handshake, so the trace gets the same "initialized"
// lifecycle event mcpclient writes when it is the client (viewers show the session as
// connected from it). Only frames that can be part of the handshake are parsed, and none
// once it is done.
type initWatch struct {
	id     string // the pending initialize's (or server/discover's) id, compact JSON
	method string
	done   bool
}

// observe looks at one frame event and returns the lifecycle event to add after it, if any.
func (w *initWatch) observe(ev *mcpclient.Event) *mcpclient.LifeInfo {
	if w.done {
		return nil
	}
	switch ev.Dir {
	case mcpclient.ClientToServer:
		if !bytes.Contains(ev.Raw, []byte(`"initialize"`)) && !bytes.Contains(ev.Raw, []byte(`"server/discover"`)) {
			return nil
		}
		kind, msg, _ := mcpclient.Classify(ev.Raw)
		if kind == mcpclient.KindRequest && (msg.Method == "initialize" || msg.Method == "server/discover") {
			w.id, w.method = jsontext.Compact(msg.ID), msg.Method
		}
	case mcpclient.ServerToClient:
		if w.id == "" || !bytes.Contains(ev.Raw, []byte(`"result"`)) {
			return nil
		}
		kind, msg, _ := mcpclient.Classify(ev.Raw)
		if kind != mcpclient.KindResponse || jsontext.Compact(msg.ID) != w.id {
			return nil
		}
		var res struct {
			ProtocolVersion   string                   `json:"protocolVersion"`
			SupportedVersions []string                 `json:"supportedVersions"`
			ServerInfo        mcpclient.Implementation `json:"serverInfo"`
		}
		_ = json.Unmarshal(msg.Result, &res)
		w.done = true
		text := fmt.Sprintf("initialized: %s %s, protocol %s", res.ServerInfo.Name, res.ServerInfo.Version, res.ProtocolVersion)
		if w.method == "server/discover" {
			text = fmt.Sprintf("discovered (modern era): %s %s, protocols %v", res.ServerInfo.Name, res.ServerInfo.Version, res.SupportedVersions)
		}
		return &mcpclient.LifeInfo{Kind: mcpclient.LifeInitialized, Text: text + " (the host's handshake)"}
	}
	return nil
}
