package course

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFuncName: methods go by "Type.Method" whatever their receiver's
// form; functions by their name.
func TestFuncName(t *testing.T) {
	src := `package p
func New() {}
func (p Pool) Size() {}
func (p *Pool) Release() {}
func (s *Set[T]) Add() {}
func (m Map[K, V]) Get() {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	var got []string
	for _, d := range f.Decls {
		got = append(got, FuncName(d.(*ast.FuncDecl)))
	}
	assert.Equal(t, []string{"New", "Pool.Size", "Pool.Release", "Set.Add", "Map.Get"}, got)
}
