package web

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kurs-course/kurs/i18n"
	"github.com/kurs-course/kurs/internal/harness"
)

// A drawing shows a failing trace step by step: what the learner's code
// showed after each call (State(), Tokens(), …) and what was expected.
//
// It needs nothing but the failure: the harness records a step in Done only
// when the learner's result equals the expected one, so up to the failing
// step the reference's line is the learner's, and at that step it is Want.
// That holds for a course from --course too, whose reference kurs cannot
// import.

// sample is one step of a drawing.
type sample struct {
	call          string
	got, want     string
	hasGot, hasWt bool
	// The whole observations, for the note at the failing step, when a
	// drawing shows only part of them (see firstPart).
	gotFull, wantFull string
}

// samples returns the steps of f that a drawing shows: the steps that ran
// and the failing one. The constructor is left out unless it failed itself:
// for the steps after it, its observation is not recorded.
func samples(f *harness.Failure) []sample {
	var s []sample
	for _, d := range f.Done {
		s = append(s, sample{call: d.Call, got: d.Got.Obs, want: d.Got.Obs, hasGot: true, hasWt: true})
	}
	last := sample{call: f.Call}
	switch f.Kind {
	case harness.Mismatch:
		last.got, last.want, last.hasGot, last.hasWt = f.Got.Obs, f.Want.Obs, true, true
	case harness.Panicked:
		last.want, last.hasWt = f.Want.Obs, f.Want.Obs != ""
	}
	s = append(s, last)
	for i := range s {
		s[i].gotFull, s[i].wantFull = s[i].got, s[i].want
	}
	return s
}

// drawing returns an SVG picture of f and the caption that says what it
// shows, or "" when there is nothing worth drawing: a quiz, a failure in
// the constructor, a trace of one step.
func drawing(p *i18n.Printer, f *harness.Failure) (template.HTML, string) {
	if f == nil || f.Observe == "" || f.Kind == harness.Quiz || f.Step == 0 {
		return "", ""
	}
	// Where the observation agrees at the departure and the returned
	// value does not, the observation's two lines would coincide: a
	// backoff's Attempt() counts alike up to the delay that overflows.
	// The returned values show the departure, when they are numbers.
	if r := returned(f); len(r) >= 2 && numeric(r) {
		return plot(p, p.T("web.draw.title_returns"), r), p.T("web.draw.caption_returns")
	}
	return drawTrace(p, f), p.T("web.draw.caption", "Observe", f.Observe)
}

// drawTrace returns an SVG picture of f's observations, or "" when there
// is nothing worth drawing.
func drawTrace(p *i18n.Printer, f *harness.Failure) template.HTML {
	if f == nil || f.Observe == "" || f.Kind == harness.Quiz || f.Step == 0 {
		return ""
	}
	s := samples(f)
	if len(s) < 2 {
		return ""
	}
	title := func(observe string) string { return p.T("web.draw.title", "Observe", observe) }
	if numeric(s) {
		return plot(p, title(f.Observe), s)
	}
	// An observation of several values, such as "State(), now()": the
	// first one may be a handful of names worth a drawing.
	if first, observe, ok := firstPart(s, f.Observe); ok {
		if len(laneOrder(first)) <= maxLanes {
			return lanes(p, title(observe), first)
		}
		return ""
	}
	if len(laneOrder(s)) <= maxLanes {
		return lanes(p, title(f.Observe), s)
	}
	return ""
}

// returned returns the steps of f by the values their calls returned, for
// a mismatch in the returned value alone; nil otherwise.
func returned(f *harness.Failure) []sample {
	if f.Kind != harness.Mismatch || f.Got.Obs != f.Want.Obs || f.Got.Ret == f.Want.Ret {
		return nil
	}
	var s []sample
	for _, d := range f.Done {
		s = append(s, sample{call: d.Call, got: d.Got.Ret, want: d.Got.Ret, hasGot: true, hasWt: true})
	}
	s = append(s, sample{call: f.Call, got: f.Got.Ret, want: f.Want.Ret, hasGot: true, hasWt: true})
	for i := range s {
		s[i].gotFull, s[i].wantFull = s[i].got, s[i].want
	}
	return s
}

// maxLanes bounds the names a drawing shows as lanes; with more, the table
// says it better.
const maxLanes = 6

// firstPart returns s with only the first of the comma-separated values
// of each observation, when every observation has the same number of them.
func firstPart(s []sample, observe string) ([]sample, string, bool) {
	parts := strings.Split(observe, ", ")
	if len(parts) < 2 {
		return nil, "", false
	}
	out := make([]sample, len(s))
	for i, x := range s {
		out[i] = x
		for _, v := range []*string{&out[i].got, &out[i].want} {
			f := strings.Split(*v, ", ")
			if *v != "" && len(f) != len(parts) {
				return nil, "", false
			}
			*v = f[0]
		}
	}
	return out, parts[0], true
}

// numeric reports whether every value in s is a number.
func numeric(s []sample) bool {
	for _, x := range s {
		for _, v := range []struct {
			has bool
			s   string
		}{{x.hasGot, x.got}, {x.hasWt, x.want}} {
			if !v.has {
				continue
			}
			if _, err := strconv.ParseFloat(v.s, 64); err != nil {
				return false
			}
		}
	}
	return true
}

// Geometry and colours of a drawing. The colours differ in lightness as
// well as in hue, and the reference is dashed, so the two lines stay apart
// for readers who do not see colour.
const (
	left, right, top, bottom = 92, 20, 48, 100
	stepWidth                = 46
	plotHeight               = 150
	learnerColour            = "#1d4ed8"
	wantColour               = "#c2410c"
	failColour               = "#b91c1c"
	// wideDrawing is the width beyond which a drawing scrolls on a phone.
	wideDrawing = 480
	// farOff is how many times the span of the other values the
	// learner's value at the departure may lie beyond them and still
	// set the scale.
	farOff = 100
)

// canvas collects the SVG elements of a drawing.
type canvas struct {
	b    strings.Builder
	w, h int
}

func newCanvas(p *i18n.Printer, title string, n int) *canvas {
	c := &canvas{w: max(360, left+right+n*stepWidth), h: top + plotHeight + bottom}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" class="drawing" role="img" viewBox="0 0 %d %d" width="%d" height="%d" font-family="system-ui, sans-serif" font-size="12">`,
		c.w, c.h, c.w, c.h)
	fmt.Fprintf(&c.b, `<title>%s</title>`, esc(title))
	c.legend(p)
	return c
}

func (c *canvas) legend(p *i18n.Printer) {
	fmt.Fprintf(&c.b, `<g class="legend"><line x1="%d" y1="14" x2="%d" y2="14" stroke="%s" stroke-width="3"/>`, left, left+24, learnerColour)
	fmt.Fprintf(&c.b, `<text x="%d" y="18">%s</text>`, left+30, esc(p.T("web.draw.learner")))
	x := left + 150
	fmt.Fprintf(&c.b, `<line x1="%d" y1="14" x2="%d" y2="14" stroke="%s" stroke-width="3" stroke-dasharray="6 4"/>`, x, x+24, wantColour)
	fmt.Fprintf(&c.b, `<text x="%d" y="18">%s</text></g>`, x+30, esc(p.T("web.draw.want")))
}

// x returns the horizontal position of step i.
func (c *canvas) x(i int) float64 { return float64(left + i*stepWidth + stepWidth/2) }

// axis draws the calls under the plot and marks the failing (last) step.
func (c *canvas) axis(p *i18n.Printer, s []sample) {
	last := len(s) - 1
	fmt.Fprintf(&c.b, `<rect class="failing-step" x="%.1f" y="%d" width="%d" height="%d" fill="%s" fill-opacity="0.10"/>`,
		c.x(last)-stepWidth/2, top, stepWidth, plotHeight, failColour)
	fmt.Fprintf(&c.b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#555"/>`, left, top+plotHeight, c.w-right, top+plotHeight)
	for i, x := range s {
		colour := "#333"
		if i == last {
			colour = failColour
		}
		fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" fill="%s" text-anchor="end" transform="rotate(-40 %.1f %d)">%s</text>`,
			c.x(i), top+plotHeight+16, colour, c.x(i), top+plotHeight+16, esc(shorten(x.call)))
	}
	fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" fill="%s" text-anchor="middle">%s</text>`,
		c.x(last), top-8, failColour, esc(p.T("web.draw.step", "Step", len(s))))
}

func (c *canvas) done() template.HTML {
	c.b.WriteString(`</svg>`)
	return template.HTML(c.b.String())
}

// lanes draws values that are names, such as a breaker's states: one lane
// per name, and the value as a line that steps from lane to lane.
func lanes(p *i18n.Printer, title string, s []sample) template.HTML {
	names := laneOrder(s)
	c := newCanvas(p, title, len(s))
	gap := float64(plotHeight) / float64(len(names))
	y := func(v string) float64 {
		return float64(top) + gap*(float64(slices.Index(names, v))+0.5)
	}
	for _, n := range names {
		fmt.Fprintf(&c.b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, left, y(n), c.w-right, y(n))
		fmt.Fprintf(&c.b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, left-8, y(n), esc(n))
	}
	c.axis(p, s)
	// A state holds from the call that set it to the next call: a step
	// line, not a slope. The reference is drawn 3 px lower so that it
	// shows where both agree.
	line := func(val func(sample) (string, bool), dy float64, colour, dash, class string) {
		var d strings.Builder
		prev := false
		for i, x := range s {
			v, ok := val(x)
			if !ok {
				prev = false
				continue
			}
			if prev {
				fmt.Fprintf(&d, " H%.1f V%.1f", c.x(i), y(v)+dy)
			} else {
				fmt.Fprintf(&d, " M%.1f %.1f", c.x(i), y(v)+dy)
			}
			prev = true
		}
		if _, ok := val(s[len(s)-1]); ok {
			fmt.Fprintf(&d, " H%.1f", c.x(len(s)-1)+stepWidth/2)
		}
		fmt.Fprintf(&c.b, `<path class="%s" d="%s" fill="none" stroke="%s" stroke-width="3"%s/>`, class, strings.TrimSpace(d.String()), colour, dash)
		for i, x := range s {
			if v, ok := val(x); ok {
				fmt.Fprintf(&c.b, `<circle class="%s" cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: %s</title></circle>`,
					class, c.x(i), y(v)+dy, colour, esc(x.call), esc(v))
			}
		}
	}
	line(func(x sample) (string, bool) { return x.want, x.hasWt }, 3, wantColour, ` stroke-dasharray="6 4"`, "want")
	line(func(x sample) (string, bool) { return x.got, x.hasGot }, 0, learnerColour, "", "learner")
	c.mismatch(p, s, y)
	return c.done()
}

// laneOrder returns the names in s, the breaker's states in their usual
// order (open at the top, as in the lesson's diagram) and others as they
// first appear.
func laneOrder(s []sample) []string {
	known := []string{"open", "half_open", "closed"}
	var seen []string
	add := func(v string, ok bool) {
		if ok && !slices.Contains(seen, v) {
			seen = append(seen, v)
		}
	}
	for _, x := range s {
		add(x.want, x.hasWt)
		add(x.got, x.hasGot)
	}
	var out []string
	for _, k := range known {
		if slices.Contains(seen, k) {
			out = append(out, k)
		}
	}
	for _, v := range seen {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// plot draws numbers, such as a bucket's tokens, as two lines over the
// steps.
func plot(p *i18n.Printer, title string, s []sample) template.HTML {
	// The scale spans every value but the learner's at the departure when
	// that one lies far off the others (an overflow's
	// -9223372036854775808 would flatten every other step to one line):
	// it then sits at the edge, and the note below gives it whole.
	hi, lo := 1.0, 0.0
	last := len(s) - 1
	for i, x := range s {
		for _, v := range []struct {
			has bool
			s   string
		}{{x.hasGot && i != last, x.got}, {x.hasWt, x.want}} {
			if f, err := strconv.ParseFloat(v.s, 64); v.has && err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				hi, lo = math.Max(hi, f), math.Min(lo, f)
			}
		}
	}
	if f, err := strconv.ParseFloat(s[last].got, 64); s[last].hasGot && err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		switch span := hi - lo; {
		case f > hi+farOff*span:
			hi += span / 4 // room at the edge, above every other value
		case f < lo-farOff*span:
			lo -= span / 4
		default:
			hi, lo = math.Max(hi, f), math.Min(lo, f)
		}
	}
	step := niceStep((hi - lo) / 5)
	hi = math.Ceil(hi/step) * step
	lo = math.Floor(lo/step) * step
	c := newCanvas(p, title, len(s))
	y := func(v string) float64 {
		f, _ := strconv.ParseFloat(v, 64)
		f = math.Max(lo, math.Min(hi, f))
		return float64(top+plotHeight) - (f-lo)/(hi-lo)*float64(plotHeight)
	}
	for v := lo; v <= hi+step/2; v += step {
		label := harness.Float(v)
		fmt.Fprintf(&c.b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e5e5e5"/>`, left, y(label), c.w-right, y(label))
		fmt.Fprintf(&c.b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, left-8, y(label), esc(label))
	}
	c.axis(p, s)
	line := func(val func(sample) (string, bool), colour, dash, class string) {
		var pts []string
		for i, x := range s {
			if v, ok := val(x); ok {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", c.x(i), y(v)))
			}
		}
		fmt.Fprintf(&c.b, `<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="3"%s/>`, class, strings.Join(pts, " "), colour, dash)
		for i, x := range s {
			if v, ok := val(x); ok {
				fmt.Fprintf(&c.b, `<circle class="%s" cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: %s</title></circle>`,
					class, c.x(i), y(v), colour, esc(x.call), esc(v))
			}
		}
	}
	line(func(x sample) (string, bool) { return x.want, x.hasWt }, wantColour, ` stroke-dasharray="6 4"`, "want")
	line(func(x sample) (string, bool) { return x.got, x.hasGot }, learnerColour, "", "learner")
	c.mismatch(p, s, y)
	return c.done()
}

// mismatch labels the failing step with both values.
func (c *canvas) mismatch(p *i18n.Printer, s []sample, y func(string) float64) {
	x := s[len(s)-1]
	i := len(s) - 1
	if x.hasGot && x.got != x.want {
		fmt.Fprintf(&c.b, `<circle cx="%.1f" cy="%.1f" r="7" fill="none" stroke="%s" stroke-width="2"/>`, c.x(i), y(x.got), failColour)
	}
	var note []string
	if x.hasWt {
		note = append(note, p.T("web.draw.want_value", "Value", x.wantFull))
	}
	if x.hasGot {
		note = append(note, p.T("web.draw.got_value", "Value", x.gotFull))
	} else {
		note = append(note, p.T("web.draw.no_value"))
	}
	// In a drawing wider than a phone the note ends at the marked step,
	// which the page scrolls into view, rather than beginning at the
	// first, and it is a little smaller, to fit the screen whole.
	x0, anchor, size := left, "start", 12
	if c.w > wideDrawing {
		x0, anchor, size = c.w-right, "end", 11
	}
	fmt.Fprintf(&c.b, `<text class="mismatch" x="%d" y="%d" fill="%s" text-anchor="%s" font-size="%d">%s</text>`,
		x0, c.h-6, failColour, anchor, size, esc(p.T("web.draw.step", "Step", len(s))+": "+strings.Join(note, " · ")))
}

// niceStep rounds a grid step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= raw {
			return m * pow
		}
	}
	return 10 * pow
}

// shorten keeps axis labels short enough to stay inside the drawing.
func shorten(s string) string {
	if r := []rune(s); len(r) > 14 {
		return string(r[:13]) + "…"
	}
	return s
}

func esc(s string) string { return template.HTMLEscapeString(s) }
