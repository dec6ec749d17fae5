package explain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/kurs-course/kurs/i18n"
)

// Duration writes d as a person writes how long something took, rounded
// to what matters at its size: "40 ms" below a tenth of a second, "0.5 s"
// and "2 s" to the tenth below ten seconds, "12 s", "1 min 3 s" and
// "2 h 5 min" above, with a space before each unit and the decimal mark
// of p's language ("0,5 s" in German). Go's Duration.String ("1.234567s",
// "1m3.4s") is for programs.
func Duration(p *i18n.Printer, d time.Duration) string {
	d = max(d, 0)
	if ms := d.Round(time.Millisecond); ms < 100*time.Millisecond {
		return fmt.Sprintf("%d ms", ms.Milliseconds())
	}
	if tenths := d.Round(100*time.Millisecond) / (100 * time.Millisecond); tenths < 100 {
		s := strconv.FormatInt(int64(tenths/10), 10)
		if t := tenths % 10; t != 0 {
			s += p.T("number.decimal_mark") + strconv.FormatInt(int64(t), 10)
		}
		return s + " s"
	}
	if r := d.Round(time.Second); r < time.Hour {
		m, s := int64(r/time.Minute), int64(r%time.Minute/time.Second)
		switch {
		case m == 0:
			return fmt.Sprintf("%d s", s)
		case s == 0:
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, s)
	}
	r := d.Round(time.Minute)
	h, m := int64(r/time.Hour), int64(r%time.Hour/time.Minute)
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}
