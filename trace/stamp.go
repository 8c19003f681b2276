package trace

import "time"

// wallStamp writes a record's "t", the wall-clock time in UTC as time.RFC3339Nano writes it
// ("2026-12-06T05:55:34.226024501Z", trailing zeros of the fraction dropped, no fraction at
// a whole second), keeping the text up to the seconds between calls: a recorder writes
// thousands of events a second, and formatting the date each time was a tenth of its CPU
// per event. A nil *wallStamp keeps nothing. Not safe for concurrent use (the Writer's lock
// guards its own).
type wallStamp struct {
	sec  int64  // the Unix second text holds, valid when text is set
	text []byte // "2006-01-02T15:04:05" of sec
}

// append appends t's stamp to b.
func (st *wallStamp) append(b []byte, t time.Time) []byte {
	if st == nil {
		return t.UTC().AppendFormat(b, time.RFC3339Nano)
	}
	t = t.UTC()
	if sec := t.Unix(); st.text == nil || sec != st.sec {
		st.sec = sec
		st.text = t.AppendFormat(st.text[:0], "2006-01-02T15:04:05")
	}
	b = append(b, st.text...)
	if ns := t.Nanosecond(); ns != 0 {
		var frac [10]byte
		frac[0] = '.'
		for i := 9; i > 0; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for frac[n-1] == '0' {
			n--
		}
		b = append(b, frac[:n]...)
	}
	return append(b, 'Z')
}
