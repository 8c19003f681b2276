package trace

import (
	"net/url"
	"regexp"
	"strings"
)

// queryValue matches one query parameter of a URL held in a longer string: the name (group
// 2) and the value (group 3), up to the next &, #, blank or quote.
var queryValue = regexp.MustCompile(`([?&])([^=&#\s"'<>]+)=([^&#\s"'<>]*)`)

// secretQueryName reports whether a URL query parameter's name says it carries a credential
// (api_key, access_token, token, apiKey, key, sig, X-Amz-Signature, …): the names remote
// MCP servers take keys under when a host's configuration holds only a URL.
func secretQueryName(name string) bool {
	up := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name))
	if secretKey.MatchString(up) {
		return true
	}
	for _, w := range strings.Split(up, "_") {
		switch w {
		case "SIG", "SIGNATURE", "APIKEY", "ACCESSTOKEN", "CODE_VERIFIER":
			return true
		}
	}
	return false
}

// maskQuery returns s with the values of its secret-named query parameters masked (any
// "?name=value" or "&name=value" in it), calling found with each parameter's decoded name
// and raw value; changed reports one.
func maskQuery(s string, found func(key, value string)) (masked string, changed bool) {
	masked = queryValue.ReplaceAllStringFunc(s, func(m string) string {
		sub := queryValue.FindStringSubmatch(m)
		key, v := sub[2], sub[3]
		if dk, err := url.QueryUnescape(key); err == nil {
			key = dk
		}
		if v == "" || !secretQueryName(key) {
			return m
		}
		changed = true
		if found != nil {
			found(key, v)
		}
		return sub[1] + sub[2] + "=" + Mask
	})
	return masked, changed
}

// addURLQuery scrubs the values of the secret-named query parameters of the URLs in value
// (their raw and their %-decoded forms, when long enough) and returns value with them
// masked; found reports whether there was one.
func (r *Redactor) addURLQuery(kind, name, value string) (masked string, found bool) {
	if !strings.Contains(value, "://") || !strings.ContainsAny(value, "?&") {
		return value, false
	}
	masked, found = maskQuery(value, func(key, v string) {
		if len(v) >= MinScrubLen {
			r.addSecret(name+" ?"+key, v)
		}
		if dv, err := url.QueryUnescape(v); err == nil && dv != v && len(dv) >= MinScrubLen {
			r.addSecret(name+" ?"+key, dv)
		}
	})
	if found {
		r.items = append(r.items, RedactedItem{Kind: kind, Name: name})
	}
	return masked, found
}

// URL returns u with the password of its userinfo and the values of its secret-named query
// parameters masked, whatever their length, and every other secret scrubbed; u when r is
// nil (--no-redact).
func (r *Redactor) URL(u string) string {
	if r == nil {
		return u
	}
	u = userinfo.ReplaceAllString(u, "${1}"+Mask+"@")
	if strings.Contains(u, "://") && strings.ContainsAny(u, "?&") {
		u, _ = maskQuery(u, nil)
	}
	return r.String(u)
}
