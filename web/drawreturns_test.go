package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/i18n"
)

// TestDrawReturnedValues: where only the returned value departs, the
// drawing shows the returned values, on a scale that the overflowing one
// does not flatten, and says so in its caption.
func TestDrawReturnedValues(t *testing.T) {
	for _, lang := range i18n.Languages {
		p := i18n.New(lang)
		svg, caption := drawing(p, backoffOverflows())
		assert.Equal(t, p.T("web.draw.caption_returns"), caption)
		nodes := parseSVG(t, string(svg))
		learner := find(nodes, "polyline", "learner")
		require.Len(t, learner, 1)
		pts := strings.Fields(learner[0].attrs["points"])
		require.Len(t, pts, 64)
		y := func(pt string) float64 {
			v, err := strconv.ParseFloat(strings.Split(pt, ",")[1], 64)
			require.NoError(t, err)
			return v
		}
		assert.Greater(t, y(pts[0])-y(pts[10]), 75.0, "a delay of 1 is drawn well below one of 1000")
		for _, pt := range pts[:63] {
			assert.Less(t, y(pt), y(pts[63]), "the overflow lies below every other delay")
		}
		notes := find(nodes, "text", "mismatch")
		require.Len(t, notes, 1)
		assert.Contains(t, notes[0].text, "-9223372036854775808")
		assert.Equal(t, "end", notes[0].attrs["text-anchor"], "in a wide drawing the note ends at the marked step")
	}
	// An observation that departs is drawn as before.
	_, caption := drawing(i18n.New("en"), breakerLate)
	assert.Equal(t, i18n.New("en").T("web.draw.caption", "Observe", "State()"), caption)
}
