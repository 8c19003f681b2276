package cmd

import (
	"runtime/debug"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	const rev = "1a092f4c1e2d3b4a5f60718293a4b5c6d7e8f901"
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "(devel)"},
		{"test binary", &debug.BuildInfo{}, "(devel)"},
		{"go install @v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: vcs("vcs.revision", rev)}, "v1.2.3"},
		{"pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201193222-1a092f4c1e2d"}}, "v0.0.0-20261201193222-1a092f4c1e2d"},
		{"devel without vcs", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("-buildmode", "exe")}, "(devel)"},
		{"devel clean", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.modified", "false")}, "(devel) 1a092f4c1e2d"},
		{"devel dirty", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.modified", "true", "vcs.revision", rev)}, "(devel) 1a092f4c1e2d+dirty"},
		{"short revision", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "abc123", "vcs.modified", "true")}, "(devel) abc123+dirty"},
		{"modified without revision", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.modified", "true")}, "(devel)"},
	} {
		if got := versionFrom("", tc.info); got != tc.want {
			t.Errorf("%s: versionFrom = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestReleaseStampWins: a release build's stamp is its version, whatever the build info says.
func TestReleaseStampWins(t *testing.T) {
	info := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a092f4c1e2d3b4a"}}}
	if got := versionFrom("v0.9.0", info); got != "v0.9.0" {
		t.Errorf("versionFrom with a stamp = %q, want v0.9.0", got)
	}
	if got := versionFrom("", info); got != "(devel) 1a092f4c1e2d" {
		t.Errorf("versionFrom without a stamp = %q", got)
	}
}

// TestVersionMatchesBuildInfo: Version reads this binary's own build info.
func TestVersionMatchesBuildInfo(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	if got, want := Version(), versionFrom("", info); got != want || got == "" {
		t.Errorf("Version() = %q, want %q (non-empty)", got, want)
	}
}
