package course

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// courseWith copies the repository's course into memory and adds files.
func courseWith(t *testing.T, files map[string]string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, root := range []string{"lessons", "exercises"} {
		require.NoError(t, fs.WalkDir(repo, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(repo, p)
			m[p] = &fstest.MapFile{Data: data}
			return err
		}))
	}
	for p := range m {
		if strings.HasPrefix(p, "exercises/tokenbucket/misconceptions/") {
			delete(m, p)
		}
	}
	for p, data := range files {
		m[p] = &fstest.MapFile{Data: []byte(data)}
	}
	return m
}

const wrongBucket = "package tokenbucket\n\ntype TokenBucket struct{}\n"

// TestMisconceptionsRead: a misconception's title, explanation and
// caught_by are read; one with a missing text is left out with an error
// naming the file, and the others stay.
func TestMisconceptionsRead(t *testing.T) {
	dir := "exercises/tokenbucket/misconceptions/"
	m := courseWith(t, map[string]string{
		dir + "no-refill/tokenbucket.go":     wrongBucket,
		dir + "no-refill/en.md":              "# Tokens never come back\n\nYou believe …\n",
		dir + "no-refill/de.md":              "# Tokens kommen nie zurück\n\nDu nimmst an …\n",
		dir + "no-refill/misconception.json": `{"caught_by": ["edge/refill"]}`,
		dir + "half-written/tokenbucket.go":  wrongBucket,
		dir + "half-written/en.md":           "# Only English\n",
		dir + "no-heading/tokenbucket.go":    wrongBucket,
		dir + "no-heading/en.md":             "Text without a title\n",
		dir + "no-heading/de.md":             "Text ohne Titel\n",
	})
	c, err := Load(m)
	require.NoError(t, err)
	ex, _ := c.Exercise("tokenbucket")
	list, err := ex.Misconceptions()
	require.Len(t, list, 1)
	mc := list[0]
	assert.Equal(t, "no-refill", mc.ID)
	assert.Equal(t, "Tokens never come back", mc.Title.In("en"))
	assert.Equal(t, "Tokens kommen nie zurück", mc.Title.In("de"))
	assert.Equal(t, "Du nimmst an …", mc.Explanation.In("de"))
	assert.Equal(t, []string{"edge/refill"}, mc.CaughtBy)
	assert.Equal(t, "tokenbucket.go", mc.Files[0].Name)
	assert.Nil(t, mc.Signature, "nothing recorded")
	require.Error(t, err)
	assert.Contains(t, err.Error(), dir+"half-written/de.md")
	assert.Contains(t, err.Error(), dir+"no-heading/de.md")

	other, _ := c.Exercise("bulkheadquiz")
	none, err := other.Misconceptions()
	assert.NoError(t, err)
	assert.Empty(t, none)
}

// TestSignaturesUsedOnlyWhenFresh: a recorded signature is used while the
// hash matches the exercise; changing the reference makes it stale, and
// changing a test's title does not.
func TestSignaturesUsedOnlyWhenFresh(t *testing.T) {
	dir := "exercises/tokenbucket/misconceptions/"
	files := map[string]string{
		dir + "no-refill/tokenbucket.go": wrongBucket,
		dir + "no-refill/en.md":          "# Tokens never come back\n",
		dir + "no-refill/de.md":          "# Tokens kommen nie zurück\n",
	}
	m := courseWith(t, files)
	c, err := Load(m)
	require.NoError(t, err)
	ex, _ := c.Exercise("tokenbucket")
	hash, err := ex.BehaviourHash()
	require.NoError(t, err)
	sigs, err := MarshalSignatures(&Signatures{Hash: hash, Misconceptions: map[string]Signature{
		"no-refill": {Fail: []string{"random"}},
	}})
	require.NoError(t, err)

	load := func(m fstest.MapFS) *Misconception {
		m[dir+SignaturesFile] = &fstest.MapFile{Data: sigs}
		c, err := Load(m)
		require.NoError(t, err)
		ex, _ := c.Exercise("tokenbucket")
		list, err := ex.Misconceptions()
		require.NoError(t, err)
		require.Len(t, list, 1)
		return list[0]
	}
	assert.Equal(t, []string{"random"}, load(m).Signature.Fail)

	retitled := courseWith(t, files)
	suite := string(retitled["exercises/tokenbucket/testdata/suite.json"].Data)
	retitled["exercises/tokenbucket/testdata/suite.json"].Data = []byte(strings.Replace(suite, `"en": "`, `"en": "Reworded: `, 1))
	assert.NotNil(t, load(retitled).Signature, "a title does not decide behaviour")

	changed := courseWith(t, files)
	sol := "exercises/tokenbucket/solution/tokenbucket.go"
	changed[sol].Data = append(changed[sol].Data, "\nvar changed = 1\n"...)
	assert.Nil(t, load(changed).Signature, "a changed reference makes the record stale")

	// A skeleton's code is no part of any signature: an author who fixes
	// a skeleton keeps the misconceptions named.
	reskeleton := courseWith(t, files)
	skel := "exercises/tokenbucket/skeleton/en/tokenbucket.go"
	reskeleton[skel].Data = append(reskeleton[skel].Data, "\nvar changed = 1\n"...)
	assert.NotNil(t, load(reskeleton).Signature, "a changed skeleton leaves the record valid")
}

// TestHashIgnoresComments: rewording a comment of the reference or a
// skeleton keeps the hash; changing the code does not.
func TestHashIgnoresComments(t *testing.T) {
	hash := func(m fstest.MapFS) string {
		c, err := Load(m)
		require.NoError(t, err)
		ex, _ := c.Exercise("tokenbucket")
		h, err := ex.BehaviourHash()
		require.NoError(t, err)
		return h
	}
	m := courseWith(t, nil)
	before := hash(m)
	sol := "exercises/tokenbucket/solution/tokenbucket.go"
	skel := "exercises/tokenbucket/skeleton/de/tokenbucket.go"
	m[sol].Data = []byte(strings.Replace(string(m[sol].Data), "// Tokens returns", "// Tokens gives back", 1))
	m[skel].Data = append([]byte("// A new first line.\n"), m[skel].Data...)
	assert.Equal(t, before, hash(m))
	m[sol].Data = []byte(strings.Replace(string(m[sol].Data), "b.tokens >= 1", "b.tokens > 1", 1))
	assert.NotEqual(t, before, hash(m))
}
