package trace

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// bigValue is the size from which WriteJSON writes a difference's value as it is instead
// of through encoding/json, which compacts it into a buffer and indents that into another.
const bigValue = 64 << 10

// WriteJSON writes the report as indented JSON (the shape of json.Marshal's), with large
// difference values written straight from where they are held: replay --json of a
// differing 100 MB result held the value about seven times over through json.Encoder.
// Errors are w's.
func (r *ReplayReport) WriteJSON(w io.Writer) error {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	tag := "mcp-inspect-value-" + hex.EncodeToString(nonce[:]) + "-"
	shallow := *r
	shallow.Items = append([]ReplayItem(nil), r.Items...)
	var big []json.RawMessage
	stand := func(v json.RawMessage) json.RawMessage {
		if len(v) < bigValue {
			return v
		}
		big = append(big, v)
		return json.RawMessage(fmt.Sprintf("%q", fmt.Sprint(tag, len(big)-1)))
	}
	for i := range shallow.Items {
		it := &shallow.Items[i]
		if len(it.Diffs) == 0 {
			continue
		}
		it.Diffs = append([]Difference(nil), it.Diffs...)
		for k := range it.Diffs {
			it.Diffs[k].Recorded = stand(it.Diffs[k].Recorded)
			it.Diffs[k].Got = stand(it.Diffs[k].Got)
		}
	}
	out, err := json.MarshalIndent(&shallow, "", "  ")
	if err != nil {
		return err
	}
	out = append(out, '\n')
	for i, v := range big {
		mark := []byte(fmt.Sprintf("%q", fmt.Sprint(tag, i)))
		at := bytes.Index(out, mark)
		if at < 0 {
			return fmt.Errorf("replay report: value %d lost while writing", i)
		}
		if _, err := w.Write(out[:at]); err != nil {
			return err
		}
		if _, err := w.Write(v); err != nil {
			return err
		}
		out = out[at+len(mark):]
	}
	_, err = w.Write(out)
	return err
}
