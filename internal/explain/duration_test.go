package explain_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/explain"
)

// TestDuration: durations as people write them, rounded to what matters
// at their size, with a space before the unit and, in German, a decimal
// comma; never Go's "1.234567s".
func TestDuration(t *testing.T) {
	en, de := i18n.New("en"), i18n.New("de")
	for d, want := range map[time.Duration][2]string{
		-time.Second: {"0 ms", "0 ms"},
		0:            {"0 ms", "0 ms"},
		40*time.Millisecond + 400*time.Microsecond: {"40 ms", "40 ms"},
		99*time.Millisecond + 600*time.Microsecond: {"0.1 s", "0,1 s"},
		500 * time.Millisecond:                     {"0.5 s", "0,5 s"},
		1234567 * time.Microsecond:                 {"1.2 s", "1,2 s"},
		2*time.Second + 20*time.Millisecond:        {"2 s", "2 s"},
		9*time.Second + 960*time.Millisecond:       {"10 s", "10 s"},
		12*time.Second + 400*time.Millisecond:      {"12 s", "12 s"},
		59*time.Second + 600*time.Millisecond:      {"1 min", "1 min"},
		63*time.Second + 400*time.Millisecond:      {"1 min 3 s", "1 min 3 s"},
		59*time.Minute + 59*time.Second:            {"59 min 59 s", "59 min 59 s"},
		time.Hour + 4*time.Minute + 40*time.Second: {"1 h 5 min", "1 h 5 min"},
		2*time.Hour + 20*time.Second:               {"2 h", "2 h"},
	} {
		assert.Equal(t, want[0], explain.Duration(en, d), "%v in English", d)
		assert.Equal(t, want[1], explain.Duration(de, d), "%v in German", d)
	}
}
