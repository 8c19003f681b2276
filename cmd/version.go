package cmd

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// develVersion is what the Go toolchain puts in BuildInfo.Main.Version when the binary was
// built from a work tree rather than fetched as a module version (go install …@vX).
const develVersion = "(devel)"

// releaseVersion is the version a release build carries, set by scripts/release.sh with
// -ldflags "-X github.com/mcp-inspect/mcp-inspect/cmd.releaseVersion=v1.2.3" (a linker
// flag can only set a package variable); "" in every other build.
var releaseVersion string

// Version returns the tool's version, shown by --version, sent in clientInfo and written in
// trace headers: the version a release build was stamped with (releaseVersion), else the module version from the binary's build info when the toolchain recorded
// one (go install …@v1.2.3; since Go 1.24 also go build in a git checkout, as a pseudo-version
// such as v0.0.0-20261130064522-1a092f458bd6+dirty), else "(devel)" followed by the first 12
// hex digits of vcs.revision and "+dirty" when vcs.modified is true, when those were recorded.
// Without either (test binaries, -buildvcs=false) it is "(devel)".
func Version() string {
	info, _ := debug.ReadBuildInfo()
	return versionFrom(releaseVersion, info)
}

// versionFrom formats Version from a release stamp ("" for none) and build info; info may
// be nil (no build info embedded).
func versionFrom(stamp string, info *debug.BuildInfo) string {
	if stamp != "" {
		return stamp
	}
	if info == nil {
		return develVersion
	}
	if v := info.Main.Version; v != "" && v != develVersion {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return develVersion
	}
	var b strings.Builder
	b.WriteString(develVersion + " ")
	b.WriteString(rev[:min(len(rev), 12)])
	if dirty {
		b.WriteString("+dirty")
	}
	return b.String()
}

// newVersionCmd is `mcp-inspect version`: the line --version prints, so the word is not
// taken for a server command called "version". It reads no settings file, as --version
// does not.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "version",
		Short:             "Print the version, as --version does",
		Args:              cobra.NoArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			fmt.Fprintf(cmd.OutOrStdout(), "%s version %s\n", root.DisplayName(), root.Version)
			return nil
		},
	}
}
