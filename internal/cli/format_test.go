package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/report"
)

// TestUnknownFormatNamesEveryFormat checks that the error on a format
// kurs does not know names every format of report's registry, in both
// languages, as the help does: one for a class alone is a format too,
// and a list kept apart from the registry falls behind it.
func TestUnknownFormatNamesEveryFormat(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		e := &env{p: i18n.New(lang)}
		_, err := e.format("xml", false)
		var u *usageError
		if assert.ErrorAs(t, err, &u, lang) {
			for _, f := range report.Formats() {
				assert.Regexp(t, `[ :,]`+f.Name+`(,|;| |$)`, u.msg, "%s: %s", lang, f.Name)
			}
		}
	}
}
