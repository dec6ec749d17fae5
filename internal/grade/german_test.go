package grade_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGermanColons holds the grading messages to one rule for the letter
// after a colon, the one a German reader expects (Duden, D 97): a whole
// sentence after a colon starts with a capital ("…: Bewerte alle Teile
// …"), a fragment goes on in lower case ("Formate: json, csv"). The
// program's name that starts a refusal ("kurs: ") and a position before
// a message ("{{.At}}: ") are tags, as on every command line: what
// follows them goes on in lower case, unless it is a noun or a name.
//
// Whether words make a sentence is not for a test to decide; the words
// that start one in these messages are: an article or pronoun followed
// by its verb, or a request. After a tag they must not be capitalised,
// after a colon in the text they must.
func TestGermanColons(t *testing.T) {
	sentence := regexp.MustCompile(`(?i)^(der|die|das|es|sein|seine|ihr|ihre|wer|bewerte|füge|lege|nimm|prüf|prüfe)\b`)
	tag := regexp.MustCompile(`^(kurs|\{\{\.(At|Where)\}\}): `)
	messages := map[string]string{}
	read := func(file string, keys ...string) {
		var m map[string]any
		data, err := os.ReadFile("../../i18n/messages/" + file)
		require.NoError(t, err)
		require.NoError(t, toml.Unmarshal(data, &m))
		for k, v := range m {
			if len(keys) > 0 && !slices.Contains(keys, k) {
				continue
			}
			switch v := v.(type) {
			case string:
				messages[k] = v
			case map[string]any:
				for form, s := range v {
					if s, ok := s.(string); ok && form != "description" {
						messages[k+"."+form] = s
					}
				}
			}
		}
	}
	read("grade.de.toml")
	// The messages of the learner's catalog that the grading documents
	// show for a test that did not run or an import that is refused.
	read("core.de.toml", "test.missing", "test.missing_killed", "test.missing_crash", "problem.import")
	require.Greater(t, len(messages), 100)

	for key, msg := range messages {
		body := msg
		if m := tag.FindStringSubmatch(msg); m != nil {
			body = msg[len(m[0]):]
			if w := sentence.FindString(body); w != "" {
				assert.Equal(t, strings.ToLower(w), w, "%s: after the tag %q a message goes on in lower case: %q", key, m[1], msg)
			}
		}
		for _, rest := range strings.Split(body, ": ")[1:] {
			if w := sentence.FindString(rest); w != "" {
				assert.NotEqual(t, strings.ToLower(w), w, "%s: after a colon, a sentence starts with a capital: %q", key, msg)
			}
		}
	}
}
