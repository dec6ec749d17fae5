package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// inert accepts the package variables learners write, which run nothing
// when the program starts, and refuses whatever could run code, panic,
// wait or fill memory in every program of a batch.
func TestInert(t *testing.T) {
	head := "package p\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n)\n\nvar _ = fmt.Sprint\nvar _ sync.Mutex\n\ntype T struct{ n int; name string }\n\nfunc (T) M() int { return 1 }\n\nfunc f() int { return 1 }\n\n"
	for _, c := range []struct {
		decl  string
		inert bool
	}{
		{"", true},
		{"var ErrOpen = errors.New(\"circuit open\")", true},
		{"var Answer = [2]string{\"D\", \"A\"}", true},
		{"const limit = 3\nvar x = limit * 2", true},
		{"var states = map[string]int{\"closed\": 0, \"open\": 1}", true},
		{"var t = &T{n: 1, name: \"x\"}", true},
		{"var g = func() int { return f() }", true},
		{"var m = (*T).M", true},
		{"var n = T{}.n", true},
		{"var p = &T{}\nvar n = p.n", false},
		{"var p = &Answer\nvar Answer [2]string", true},
		{"var mu = &sync.Mutex{}", true},
		{"var d = 5 * 2", true},
		{"func init() {}", false},
		{"var n = f()", false},
		{"var e = fmt.Errorf(\"x\")", false},
		{"var e = errors.New(name)\nvar name = \"x\"", false},
		{"var s = make([]byte, 1<<30)", false},
		{"var q = new(T)", false},
		{"var c = make(chan int)\nvar v = <-c", false},
		{"var a, b = 1, 0\nvar x = a / b", false},
		{"var a = 1\nvar x = 1 << a", false},
		{"var k any = []int{}\nvar m = map[any]int{k: 1}", false},
		{"var k any = 1\nvar y = k == k", false},
		{"var v any = 1\nvar n = v.(int)", false},
		{"var s []int\nvar n = s[3]", false},
		{"var p *T\nvar n = p.n", false},
		{"var p *T\nvar f2 = p.M", false},
		{"type State int\nvar s = State(2)", true},
	} {
		src := source{Name: "p.go", Data: []byte(head + c.decl + "\n")}
		assert.Equal(t, c.inert, inert([]source{src}, nil), "%s", c.decl)
	}
}

// What the reviewer of the batch found: a file that only the type
// checker sees, and memory that grows while the program starts.
func TestInertHoles(t *testing.T) {
	for _, c := range []struct {
		name  string
		files []source
	}{
		{"a file for another platform", []source{
			{Name: "a_windows.go", Data: []byte("package p\n\ntype boom int\n")},
			{Name: "b.go", Data: []byte("package p\n\nfunc boom(int) int { for {} }\n\nvar _ = boom(1)\n")},
		}},
		{"a file with a constraint", []source{
			{Name: "a.go", Data: []byte("//go:build ignore\n\npackage p\n\ntype boom int\n")},
			{Name: "b.go", Data: []byte("package p\n\nfunc boom(int) int { for {} }\n\nvar _ = boom(1)\n")},
		}},
		{"strings joined", []source{{Name: "a.go", Data: []byte("package p\n\nvar s0 = \"0123456789abcdef\"\nvar s1 = s0 + s0 + s0 + s0\n")}}},
		{"a map of large values", []source{{Name: "a.go", Data: []byte("package p\n\nvar m = map[int][1 << 25]byte{1: {}, 2: {}}\n")}}},
		{"runes of a constant", []source{{Name: "a.go", Data: []byte("package p\n\nconst s = \"abc\"\n\nvar r = []rune(s)\n")}}},
		{"a map of pointers to large arrays", []source{{Name: "a.go", Data: []byte("package p\n\nvar pad = map[int]*[6 << 20]*int{0: &[6 << 20]*int{}}\n")}}},
		{"a map of slices", []source{{Name: "a.go", Data: []byte("package p\n\nvar m = map[int][]int{0: {1, 2}}\n")}}},
	} {
		assert.False(t, inert(c.files, nil), c.name)
	}
	small := []source{{Name: "a.go", Data: []byte("package p\n\nvar m = map[string]int{\"a\": 1, \"b\": 2}\nvar n = 2 * 3.5\n")}}
	assert.True(t, inert(small, nil), "a small map, a number")
}
