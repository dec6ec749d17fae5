package spell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"New", "New", 0}, {"New", "new", 0}, {"New", "Nwe", 1}, {"New", "Ne", 1}, {"New", "News", 1},
		{"New", "Old", 3}, {"", "abc", 3}, {"Success", "Succeed", 2}, {"ab", "ba", 1}, {"Straße", "Strasse", 2},
	} {
		assert.Equal(t, c.d, Distance(c.a, c.b), "%s %s", c.a, c.b)
		assert.Equal(t, c.d, Distance(c.b, c.a), "%s %s", c.b, c.a)
	}
}

// TestNear: a slip is one edit in a short name, two in a long one; the
// name itself and an unrelated one are none.
func TestNear(t *testing.T) {
	for _, c := range []struct {
		written, name string
		near          bool
	}{
		{"Nwe", "New", true}, {"titel", "title", true}, {"minuten", "minutes", true},
		{"exercices", "exercises", true}, {"point", "points", true}, {"Sucess", "Success", true},
		{"hint", "kind", false}, {"author", "order", false}, {"title", "title", false}, {"Old", "New", false},
	} {
		assert.Equal(t, c.near, Near(c.written, c.name), "%s for %s", c.written, c.name)
	}
}
