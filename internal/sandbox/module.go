package sandbox

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// launcherFiles are the sources of the launcher program: package launch
// and the program's main.
//
//go:embed launch/*.go launch/launcher/main.go
var launcherFiles embed.FS

// LauncherModule returns the files of a module that builds the launcher
// program, a small static binary to name in [Policy].Launcher: its main
// package is internal/run, and it needs nothing but the standard library
// (goVersion is its go.mod's go version). It runs the same code as the
// launcher in every binary that links this package. It is nil where
// Command starts programs without a launcher.
func LauncherModule(goVersion string) map[string][]byte {
	if !launchers {
		return nil
	}
	const pkg = "internal/sandbox/launch"
	mod := map[string][]byte{
		"go.mod": []byte("module github.com/kurs-course/kurs\n\ngo " + goVersion + "\n"),
	}
	files, _ := fs.Glob(launcherFiles, "launch/*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, _ := launcherFiles.ReadFile(name)
		mod[path.Join(pkg, path.Base(name))] = data
	}
	mod["internal/run/main.go"], _ = launcherFiles.ReadFile("launch/launcher/main.go")
	return mod
}
