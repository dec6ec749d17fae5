package build

import (
	"os"
	"path/filepath"
	"testing"
)

// A kept program shares its file with the build that made it (keep links
// it); a later change to that file, through the build's folder, must
// still keep the changed bytes from being used as the kept program.
func TestKeptProgramChangedThroughItsBuildIsNotUsed(t *testing.T) {
	b, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache"), TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	src := filepath.Join(t.TempDir(), "kurs-learner")
	if err := os.WriteFile(src, []byte("the program as linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(src, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	sum, err := b.keep("prog", src, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "fetched")
	if got, ok := b.fetch("prog", dst, 0o755); !ok || got != sum {
		t.Fatalf("fetch of the kept program: %q, %v; want %q, true", got, ok, sum)
	}

	// Rewritten in place: the same file on disk, other bytes.
	f, err := os.OpenFile(src, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("THE"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	dst2 := filepath.Join(t.TempDir(), "fetched")
	if got, ok := b.fetch("prog", dst2, 0o755); ok {
		t.Fatalf("fetch used a kept program whose bytes changed since it was kept (hash %s)", got)
	}
	if _, err := os.Stat(dst2); !os.IsNotExist(err) {
		t.Errorf("a refused object was left in place: %v", err)
	}
}

// An archive whose mode is not the store's is copied, not linked, so that
// the store's object keeps the mode it is fetched with.
func TestKeptArchiveKeepsTheStoresMode(t *testing.T) {
	b, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache"), TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	src := filepath.Join(t.TempDir(), "p.a")
	if err := os.WriteFile(src, []byte("!<arch>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := b.keep("arch", src, 0o600); err != nil {
		t.Fatal(err)
	}
	dir, err := b.sub("objects")
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, "arch"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("kept archive has mode %v, want 0600", info.Mode().Perm())
	}
}

// verifyKit remembers what it checked in the Builder, so that a check's
// second look at its kit reads no record; an archive changed in between
// must still be caught by that second look.
func TestKitChangedBetweenTwoVerificationsIsCaught(t *testing.T) {
	b, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache"), TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	dir := t.TempDir()
	name := filepath.Join(dir, "0.a")
	if err := os.WriteFile(name, []byte("!<arch>\nthe package\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, _, err := hashFile(name)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kit{Packages: []archive{{File: "0.a", Sum: sum}}, dir: dir}
	for i := range 2 {
		if err := b.verifyKit(k); err != nil {
			t.Fatalf("look %d at an unchanged kit: %v", i+1, err)
		}
	}
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("THE"), 8); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.verifyKit(k); err == nil {
		t.Fatal("verifyKit accepted an archive whose bytes changed since it last looked")
	}
	// Nor does another Builder, which reads the kit's record.
	b2, err := New(Options{Dir: filepath.Join(t.TempDir(), "cache"), TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if err := b2.verifyKit(k); err == nil {
		t.Fatal("a new Builder accepted an archive whose bytes changed since the kit was checked")
	}
}
