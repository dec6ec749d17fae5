package course

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSupportFolders(t *testing.T) {
	fsys := fstest.MapFS{
		"exercises/a/sim/sim.go":      {Data: []byte("package sim\n")},
		"exercises/a/sim/sim_test.go": {Data: []byte("package sim\n")},
		"exercises/b/x.go":            {Data: []byte("package b\n")},
		"exercises/b/testdata/d.go":   {Data: []byte("package main\n")},
	}
	ex := &Exercise{ID: "b", exercises: mustSub(t, fsys, "exercises")}

	ex.Support = []string{"../a/sim"}
	got, err := ex.SupportFiles()
	require.NoError(t, err)
	require.Contains(t, got, "a/sim", "another exercise's folder, at its own path")
	assert.Len(t, got["a/sim"], 1, "test files are not part of a support package")

	for _, bad := range []string{"../../outside", "/abs", "testdata", "../b/testdata"} {
		ex.Support = []string{bad}
		_, err := ex.SupportFiles()
		assert.Error(t, err, "%q must be refused", bad)
	}
}

func mustSub(t *testing.T, fsys fstest.MapFS, dir string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	for name, f := range fsys {
		if len(name) > len(dir) && name[:len(dir)+1] == dir+"/" {
			out[name[len(dir)+1:]] = f
		}
	}
	require.NotEmpty(t, out)
	return out
}
