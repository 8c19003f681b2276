package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/boundedfile"
	"github.com/mcp-inspect/mcp-inspect/internal/configwrap"
	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
)

// backupSuffix names the copy of a config file kept by `config wrap`.
const backupSuffix = ".mcp-inspect.bak"

func newConfigCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "config",
		Short: "Route a server of a Claude Desktop / VS Code / Cursor config through the tap, and back",
		Long: `config wrap rewrites one server entry of a host's config file so the host starts it through
` + "`mcp-inspect tap`" + ` (every message recorded, ` + "`mcp-inspect attach NAME`" + ` to watch it live);
config unwrap restores the entry. Only that entry's "command" and "args" change; the rest of
the file, comments included, stays byte for byte. Before writing, wrap keeps a copy of the
file as FILE` + backupSuffix + `. Restart the host (or reload its MCP servers) afterwards.`,
	}
	c.AddCommand(newConfigWrapCmd(), newConfigUnwrapCmd())
	return c
}

func newConfigWrapCmd() *cobra.Command {
	var server, name, record, bin string
	var dryRun bool
	c := &cobra.Command{
		Use:   "wrap FILE --server NAME",
		Short: "Make the host start server NAME through mcp-inspect tap",
		Example: `  mcp-inspect config wrap ~/.config/Claude/claude_desktop_config.json --server filesystem
  mcp-inspect config wrap .vscode/mcp.json --server everything --record /tmp/everything.jsonl`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			file := args[0]
			if server == "" {
				return &codeError{exitUsage, "config wrap needs --server NAME"}
			}
			if bin == "" {
				exe, err := os.Executable()
				if err != nil {
					return &codeError{1, "cannot find the mcp-inspect binary: " + err.Error()}
				}
				bin = exe
			}
			abs, err := filepath.Abs(bin)
			if err != nil {
				return &codeError{1, err.Error()}
			}
			var extra []string
			if record != "" {
				r, err := filepath.Abs(record)
				if err != nil {
					return &codeError{1, err.Error()}
				}
				// The host starts the tap on every launch: each start replaces the trace.
				extra = []string{"--record", r, "--overwrite"}
			}
			data, err := boundedfile.Read(file, hostconfig.MaxFileSize)
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			out, err := configwrap.Wrap(data, server, configwrap.Options{Exe: abs, Name: name, Extra: extra})
			if err != nil {
				return editError(file, err, configwrap.ErrWrapped)
			}
			edit := configEdit{file: file, server: server, wrap: true, dryRun: dryRun, before: data, after: out}
			if written, err := edit.apply(cmd.OutOrStdout()); !written {
				return err
			}
			tapName := name
			if tapName == "" {
				tapName = server
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "wrapped server %q in %s: the host now starts it through %s tap\n", server, file, abs)
			fmt.Fprintf(w, "backup: %s%s\n", file, backupSuffix)
			fmt.Fprintf(w, "restart the host (or reload its MCP servers), then watch it with: mcp-inspect attach %s\n", lineQuoting().Join([]string{tapName}))
			return nil
		},
	}
	c.Flags().StringVar(&server, "server", "", "the `NAME` of the server entry to wrap")
	c.Flags().StringVar(&name, "name", "", "the tap's `NAME` for attach (default: the server's name)")
	c.Flags().StringVar(&record, "record", "", "have the tap write its trace to `FILE`, replaced on every start of the server by the host (the tap gets --overwrite; default: the user state directory, kept 30 days, at most 1 GiB)")
	c.Flags().StringVar(&bin, "bin", "", "the mcp-inspect binary (`PATH`) the host should run (default: this one)")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print the new file instead of writing it")
	return c
}

func newConfigUnwrapCmd() *cobra.Command {
	var server string
	var dryRun bool
	c := &cobra.Command{
		Use:           "unwrap FILE --server NAME",
		Short:         "Make the host start server NAME directly again",
		Example:       `  mcp-inspect config unwrap ~/.config/Claude/claude_desktop_config.json --server filesystem`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			file := args[0]
			if server == "" {
				return &codeError{exitUsage, "config unwrap needs --server NAME"}
			}
			data, err := boundedfile.Read(file, hostconfig.MaxFileSize)
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			backup, _ := os.ReadFile(file + backupSuffix)
			out, err := configwrap.Unwrap(data, server, backup)
			if err != nil {
				return editError(file, err, configwrap.ErrNotWrapped)
			}
			edit := configEdit{file: file, server: server, wrap: false, dryRun: dryRun, before: data, after: out}
			if written, err := edit.apply(cmd.OutOrStdout()); !written {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "unwrapped server %q in %s: the host starts it directly again (restart the host)\n", server, file)
			return nil
		},
	}
	c.Flags().StringVar(&server, "server", "", "the `NAME` of the server entry to unwrap")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print the new file instead of writing it")
	return c
}

// checkEdit reads the old and the new file the way mcp-inspect reads host configs and makes
// sure only server changed, and as intended.
func checkEdit(path string, before, after []byte, server string, wrapped bool) error {
	opt := hostconfig.Options{LookupEnv: func(string) (string, bool) { return "", false }}
	old, err := hostconfig.Parse(before, path, opt)
	if err != nil {
		return err
	}
	nu, err := hostconfig.Parse(after, path, opt)
	if err != nil {
		return fmt.Errorf("internal error: the rewritten file does not parse: %v", err)
	}
	if len(old.Servers) != len(nu.Servers) {
		return errors.New("internal error: the rewrite changed the number of servers")
	}
	for i := range old.Servers {
		o, n := old.Servers[i], nu.Servers[i]
		if o.Name != server {
			if !reflect.DeepEqual(o, n) {
				return fmt.Errorf("internal error: the rewrite changed server %q", o.Name)
			}
			continue
		}
		if ok, _ := configwrap.Wrapped(after, server); ok != wrapped {
			return fmt.Errorf("internal error: server %q is not %s after the rewrite", server, map[bool]string{true: "wrapped", false: "unwrapped"}[wrapped])
		}
		o.Command, o.Args, n.Command, n.Args, o.Notes, n.Notes = "", nil, "", nil, nil, nil
		if !reflect.DeepEqual(o, n) {
			return fmt.Errorf("internal error: the rewrite changed more than the command of server %q", server)
		}
	}
	return nil
}

// writeConfig replaces the file's contents atomically (a temporary file renamed over it,
// following a symlink to the real file, keeping its mode). With backup set, the old
// contents are first kept as FILE.mcp-inspect.bak.
func writeConfig(path string, old, data []byte, backup bool) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(target)
	if err != nil {
		return err
	}
	if backup {
		if err := os.WriteFile(path+backupSuffix, old, st.Mode().Perm()); err != nil {
			return fmt.Errorf("keeping a backup: %w", err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// editError is the result of a wrap or unwrap that failed: already in that state (errors.Is
// already) exits 1, anything else is a usage error.
func editError(file string, err, already error) error {
	code := exitUsage
	if errors.Is(err, already) {
		code = 1
	}
	return &codeError{code, fmt.Sprintf("%s: %v", file, err)}
}

// configEdit is one successful wrap (wrap set) or unwrap of server's entry in file: before
// is the file's contents, after the edited ones.
type configEdit struct {
	file, server  string
	wrap, dryRun  bool
	before, after []byte
}

// apply finishes wrap and unwrap alike: the check that only the entry changed, --dry-run
// (the new file on w), then the write with its backup (kept on wrap). written is false when
// the command ends here, with err as its result.
func (e configEdit) apply(w io.Writer) (written bool, err error) {
	if err := checkEdit(e.file, e.before, e.after, e.server, e.wrap); err != nil {
		return false, &codeError{1, err.Error()}
	}
	if e.dryRun {
		_, err := w.Write(e.after)
		return false, err
	}
	if err := writeConfig(e.file, e.before, e.after, e.wrap); err != nil {
		return false, &codeError{1, err.Error()}
	}
	return true, nil
}
