package lessons_test

// These tests keep the lesson fehlertoleranz honest: every table and every
// figure in fehlertoleranz/de.md and fehlertoleranz/en.md is recomputed
// from the reference solutions and the simulator exercises/breakercall/sim,
// and the two languages are checked for point-by-point parity. A failure
// names the file and line to fix.
//
// All names here start with ft: other lessons' tests share the package.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/exercises/breakercall/sim"
	breakercall "github.com/kurs-course/kurs/exercises/breakercall/solution"
	bulkheadpool "github.com/kurs-course/kurs/exercises/bulkheadpool/solution"
	gateway "github.com/kurs-course/kurs/exercises/gateway/solution"
)

const ftDir = "fehlertoleranz"

// ftLang holds what differs between the two languages: words, the decimal
// separator and the header of every table.
type ftLang struct {
	code    string
	yes, no string
	decimal string

	callsHeader, setupHeader, blipHeader, retryHeader []string
	sharedHeader, isolatedHeader, splitHeader         []string
	gatewayHeader, connectsHeader, quickHeader        []string
	sequenceHeader                                    []string
	variantsHeader                                    []string

	never string // breaker variants table: the breaker never opens

	noBreaker           string // summary table: "no breaker"
	shared, separate    string // split table
	allHealthy, down    string // gateway table: "all healthy", "reviews down"
	resilient, brittle  string
	fallback, errorWord string

	// phrases holds sentences whose numbers the tests fill in, in order.
	tenCallsSentence string // threshold 3 total, no-breaker total; says "a little under a third"
	paidSentence     string // calls paying the timeout and refused, as words
	thresholdOne     string // total time with threshold 1
	retrySentence    string // backoff spread
	blipSentence     string // refused with threshold 1, time of the probe
	blipPitfall      string // refused with threshold 1, as a word
}

var ftLangs = []ftLang{
	{
		code: "de", yes: "ja", no: "nein", decimal: ",",
		callsHeader:    []string{"Aufruf", "Uhr vorher", "Ergebnis", "Uhr danach", "Zustand danach"},
		setupHeader:    []string{"Aufbau", "Aufrufe mit vollem Timeout", "sofort abgelehnt", "Gesamtzeit", "Anteil an der Zeit ohne Breaker"},
		blipHeader:     []string{"Schwelle", "erfolgreich", "vom Downstream gescheitert", "vom Breaker abgelehnt"},
		retryHeader:    []string{"Versuch", "naiv: Zeitpunkt", "Backoff: Wartezeit davor", "Backoff: Zeitpunkt"},
		sharedHeader:   []string{"Anfrage", "Dienst", "`TryAcquire()`", "belegt danach"},
		isolatedHeader: []string{"Anfrage", "Dienst", "`TryAcquire()`", "belegt: recommendations / checkout"},
		splitHeader:    []string{"Aufteilung", "Verbindungen insgesamt", "recommendations belegt", "checkout bekommt eine?"},
		gatewayHeader:  []string{"Lage", "Gateway", "aufgerufen", "Antwort an den Client", "`Degraded()`"},
		connectsHeader: []string{"Ergebnis dieser Lektion", "knüpft an"},
		quickHeader:    []string{"Muster", "was es tut", "in dieser Lektion nachgerechnet"},
		sequenceHeader: []string{"Schritt", "erwartet"},
		variantsHeader: []string{"Downstream", "in Folge, Schwelle 3", "50 % der letzten 10, ohne Minimum", "50 % der letzten 10, mindestens 5 Aufrufe", "ebenso, dazu langsame Aufrufe (ab 1000 ms)"},
		never:          "nie",
		noBreaker:      "ohne Breaker",
		shared:         "gemeinsam", separate: "getrennt",
		allHealthy: "alle gesund", down: "fällt aus",
		resilient: "robust", brittle: "spröde",
		fallback: "Fallback", errorWord: "Fehler",
		tenCallsSentence: "Mit Schwelle 3 kostet der kaputte Downstream also %s statt %s ms, knapp ein Drittel der Zeit.",
		paidSentence:     "Nur die ersten %s Aufrufe zahlen den vollen Timeout, die übrigen %s scheitern sofort",
		thresholdOne:     "Dann zahlt nur noch der erste Aufruf den Timeout, die Gesamtzeit fällt auf %s ms.",
		retrySentence:    "Mit Backoff verteilen sich dieselben fünf Versuche über %s ms.",
		blipSentence:     "und %s Anfragen an einen völlig gesunden Dienst werden abgelehnt, bis die Probe bei %s ms durchgeht.",
		blipPitfall:      "(%s im Beispiel aus Schritt 1)",
	},
	{
		code: "en", yes: "yes", no: "no", decimal: ".",
		callsHeader:    []string{"Call", "Clock before", "Result", "Clock after", "State after"},
		setupHeader:    []string{"Setup", "calls paying the full timeout", "refused at once", "total time", "share of the time without a breaker"},
		blipHeader:     []string{"Threshold", "succeeded", "failed by the downstream", "refused by the breaker"},
		retryHeader:    []string{"Attempt", "naive: time", "backoff: wait before", "backoff: time"},
		sharedHeader:   []string{"Request", "Service", "`TryAcquire()`", "in use after"},
		isolatedHeader: []string{"Request", "Service", "`TryAcquire()`", "in use: recommendations / checkout"},
		splitHeader:    []string{"Split", "Connections in total", "recommendations holds", "checkout gets one?"},
		gatewayHeader:  []string{"Situation", "Gateway", "called", "Response to the client", "`Degraded()`"},
		connectsHeader: []string{"This lesson's finding", "What it connects to"},
		quickHeader:    []string{"Pattern", "what it does", "worked out in this lesson"},
		sequenceHeader: []string{"Step", "expected"},
		variantsHeader: []string{"Downstream", "in a row, threshold 3", "50% of the last 10, no minimum", "50% of the last 10, at least 5 calls", "the same, plus slow calls (from 1000 ms)"},
		never:          "never",
		noBreaker:      "no breaker",
		shared:         "shared", separate: "separate",
		allHealthy: "all healthy", down: "down",
		resilient: "resilient", brittle: "brittle",
		fallback: "fallback", errorWord: "error",
		tenCallsSentence: "With threshold 3 the broken downstream costs %s instead of %s ms, a little under a third of the time.",
		paidSentence:     "Only the first %s calls pay the full timeout; the other %s fail at once",
		thresholdOne:     "then only the first call pays the timeout, and the total time drops to %s ms.",
		retrySentence:    "With backoff the same five attempts spread over %s ms.",
		blipSentence:     "and %s requests to a perfectly healthy service are refused until the probe goes through at %s ms.",
		blipPitfall:      "(%s in the example of step 1)",
	},
}

// ftDoc is one parsed lesson file.
type ftDoc struct {
	file     string // path shown in failure messages
	text     string
	tables   []ftTable
	headings []string // "## ..." and "### ..." outside code blocks
	fences   []string // info string of every code block
	markers  []string // kurs:trace comments, in order
	prose    []ftLine // lines outside code blocks
	code     string   // the text of all code blocks
}

type ftLine struct {
	n    int
	text string
}

type ftTable struct {
	line   int
	header []string
	rows   []ftRow
}

type ftRow struct {
	line  int
	cells []string
}

func (r ftRow) at(d *ftDoc, format string, args ...any) string {
	return fmt.Sprintf("%s:%d: ", d.file, r.line) + fmt.Sprintf(format, args...)
}

var ftDelimiter = regexp.MustCompile(`^\|(\s*:?-{3,}:?\s*\|)+\s*$`)

func ftLoad(t *testing.T, lang string) *ftDoc {
	t.Helper()
	path := filepath.Join(ftDir, lang+".md")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	d := &ftDoc{file: filepath.ToSlash(filepath.Join("lessons", path)), text: string(data)}
	lines := strings.Split(strings.ReplaceAll(d.text, "\r\n", "\n"), "\n")
	var code strings.Builder
	inFence := false
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		if strings.HasPrefix(ln, "```") {
			if !inFence {
				d.fences = append(d.fences, strings.TrimSpace(strings.TrimPrefix(ln, "```")))
			}
			inFence = !inFence
			continue
		}
		if inFence {
			code.WriteString(ln + "\n")
			continue
		}
		d.prose = append(d.prose, ftLine{i + 1, ln})
		if strings.HasPrefix(ln, "## ") || strings.HasPrefix(ln, "### ") {
			d.headings = append(d.headings, ln)
		}
		if strings.HasPrefix(ln, "<!-- kurs:trace") {
			d.markers = append(d.markers, ln)
		}
		if strings.HasPrefix(ln, "|") && i+1 < len(lines) && ftDelimiter.MatchString(lines[i+1]) {
			tb := ftTable{line: i + 1, header: ftSplit(ln)}
			j := i + 2
			for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
				tb.rows = append(tb.rows, ftRow{line: j + 1, cells: ftSplit(lines[j])})
			}
			d.tables = append(d.tables, tb)
			i = j - 1
		}
	}
	d.code = code.String()
	return d
}

func ftSplit(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "|"), "|")
	parts := strings.Split(s, "|")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// table returns the one table with exactly this header, with rows rows.
func (d *ftDoc) table(t *testing.T, header []string, rows int) ftTable {
	t.Helper()
	var found []ftTable
	for _, tb := range d.tables {
		if slices.Equal(tb.header, header) {
			found = append(found, tb)
		}
	}
	require.Len(t, found, 1, "%s: want exactly one table with header | %s |", d.file, strings.Join(header, " | "))
	tb := found[0]
	require.Len(t, tb.rows, rows, "%s:%d: the table | %s | has the wrong number of rows", d.file, tb.line, strings.Join(header, " | "))
	for _, r := range tb.rows {
		require.Len(t, r.cells, len(header), r.at(d, "row has %d cells, the header %d", len(r.cells), len(header)))
	}
	return tb
}

// ftClean drops Markdown code and emphasis marks.
func ftClean(s string) string {
	return strings.TrimSpace(strings.NewReplacer("`", "", "**", "", "*", "").Replace(s))
}

var ftNumberRE = regexp.MustCompile(`^\d+(?:[.,]\d+)?`)

// number returns the number a cell starts with, written in lg's notation.
func (lg ftLang) number(t *testing.T, d *ftDoc, r ftRow, cell string) float64 {
	t.Helper()
	c := ftClean(cell)
	m := ftNumberRE.FindString(c)
	require.NotEmpty(t, m, r.at(d, "cell %q does not start with a number", cell))
	other := map[string]string{",": ".", ".": ","}[lg.decimal]
	require.NotContains(t, m, other, r.at(d, "number %q uses the wrong decimal separator for %s", m, lg.code))
	f, err := strconv.ParseFloat(strings.ReplaceAll(m, lg.decimal, "."), 64)
	require.NoError(t, err, r.at(d, "cell %q", cell))
	return f
}

func (lg ftLang) integer(t *testing.T, d *ftDoc, r ftRow, cell string) int {
	t.Helper()
	f := lg.number(t, d, r, cell)
	require.Equal(t, f, float64(int(f)), r.at(d, "cell %q must hold a whole number", cell))
	return int(f)
}

// pct formats part/whole as a whole percentage in lg's notation ("30 %",
// "30%"); a share that is not whole fails rather than round.
func (lg ftLang) pct(part, whole int) string {
	if 100*part%whole != 0 {
		panic(fmt.Sprintf("%d/%d is no whole percentage", part, whole))
	}
	if lg.code == "de" {
		return fmt.Sprintf("%d %%", 100*part/whole)
	}
	return fmt.Sprintf("%d%%", 100*part/whole)
}

func (lg ftLang) yesNo(t *testing.T, d *ftDoc, r ftRow, cell string) bool {
	t.Helper()
	w := strings.Fields(ftClean(cell))
	require.NotEmpty(t, w, r.at(d, "empty cell"))
	switch strings.TrimRight(w[0], ",;:") {
	case lg.yes:
		return true
	case lg.no:
		return false
	}
	require.Failf(t, "not a yes/no cell", r.at(d, "%q does not start with %q or %q", cell, lg.yes, lg.no))
	return false
}

// ftPhrase checks that d contains the sentence format filled with args.
func ftPhrase(t *testing.T, d *ftDoc, format string, args ...any) {
	t.Helper()
	want := fmt.Sprintf(format, args...)
	require.True(t, strings.Contains(d.text, want), "%s: the text should say %q (recomputed from the reference); update the sentence", d.file, want)
}

// ftErrName names an error as the lesson's tables and the exercise's check do.
func ftErrName(err error) string {
	switch {
	case err == nil:
		return "nil"
	case errors.Is(err, breakercall.ErrOpen):
		return "ErrOpen"
	case errors.Is(err, sim.ErrDown):
		return "errDown"
	}
	return err.Error()
}

// ftBreakerRun is the chapter's ten calls through a breaker with the given
// threshold (0: no breaker), on a clock of its own.
func ftBreakerRun(threshold int) (results []sim.Result, total int, b *breakercall.Breaker) {
	clock := &sim.Clock{}
	call := sim.Call(sim.Direct)
	if threshold > 0 {
		b = breakercall.New(threshold, 5000, clock.Now)
		call = b.Call
	}
	results = sim.Run(clock, call, sim.Failing(10, 100))
	return results, clock.Now(), b
}

// TestFehlertoleranzTenCalls replays the chapter's ten calls to a
// downstream that always fails after 100 ms: call by call through a
// breaker with threshold 3, and in total for several thresholds.
func TestFehlertoleranzTenCalls(t *testing.T) {
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.text, "breakercall.New(3, 5000, clock.Now)", "%s: the call table must name its breaker", d.file)
			require.Contains(t, d.text, "sim.Failing(10, 100)", "%s: the experiment must name its calls", d.file)

			// Call by call, replayed on a fresh breaker so that the state
			// after each call can be read.
			tb := d.table(t, lg.callsHeader, 10)
			clock := &sim.Clock{}
			b := breakercall.New(3, 5000, clock.Now)
			for i, r := range tb.rows {
				require.Equal(t, i+1, lg.integer(t, d, r, r.cells[0]), r.at(d, "calls are numbered 1, 2, ..."))
				before := clock.Now()
				res := sim.Run(clock, b.Call, sim.Failing(1, 100))[0]
				require.Equal(t, float64(before), lg.number(t, d, r, r.cells[1]), r.at(d, "call %d: clock before", i+1))
				require.Equal(t, ftErrName(res.Err), strings.Fields(ftClean(r.cells[2]))[0], r.at(d, "call %d: result", i+1))
				require.Equal(t, float64(res.End), lg.number(t, d, r, r.cells[3]), r.at(d, "call %d: clock after", i+1))
				require.Equal(t, b.State(), strings.Fields(ftClean(r.cells[4]))[0], r.at(d, "call %d: state after", i+1))
			}

			// In total, per setup.
			_, base, _ := ftBreakerRun(0)
			tb = d.table(t, lg.setupHeader, 4)
			for _, r := range tb.rows {
				threshold := 0
				if !strings.HasPrefix(r.cells[0], lg.noBreaker) {
					f := strings.Fields(r.cells[0])
					n, err := strconv.Atoi(f[len(f)-1])
					require.NoError(t, err, r.at(d, "setup %q must end with its threshold", r.cells[0]))
					threshold = n
				}
				results, total, _ := ftBreakerRun(threshold)
				paid, refused := 0, 0
				for _, res := range results {
					if res.Ran {
						paid++
					} else {
						refused++
					}
				}
				require.Equal(t, float64(paid), lg.number(t, d, r, r.cells[1]), r.at(d, "%s: calls paying the timeout", r.cells[0]))
				require.Equal(t, float64(refused), lg.number(t, d, r, r.cells[2]), r.at(d, "%s: refused at once", r.cells[0]))
				require.Equal(t, float64(total), lg.number(t, d, r, r.cells[3]), r.at(d, "%s: total time", r.cells[0]))
				require.Equal(t, lg.pct(total, base), ftClean(r.cells[4]), r.at(d, "%s: share of the time without a breaker", r.cells[0]))
			}

			results, three, _ := ftBreakerRun(3)
			// "a little under a third": between a quarter and a third.
			require.True(t, 4*three > base && 3*three < base, "threshold 3 takes %d of %d ms: no longer a little under a third", three, base)
			ftPhrase(t, d, lg.tenCallsSentence, strconv.Itoa(three), strconv.Itoa(base))
			paid := 0
			for _, res := range results {
				if res.Ran {
					paid++
				}
			}
			ftPhrase(t, d, lg.paidSentence, ftNumberWord(lg, paid), ftNumberWord(lg, len(results)-paid))
			_, one, _ := ftBreakerRun(1)
			ftPhrase(t, d, lg.thresholdOne, strconv.Itoa(one))
			for _, want := range []string{fmt.Sprintf("fmt.Println(clock.Now()) // %d", three), fmt.Sprintf("fmt.Println(direct.Now()) // %d", base)} {
				require.True(t, strings.Contains(d.code, want), "%s: a code block should say %q (recomputed from the reference)", d.file, want)
			}
		})
	}
}

// TestFehlertoleranzBlip replays the price of a low threshold: one
// transient failure among healthy calls.
func TestFehlertoleranzBlip(t *testing.T) {
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.text, "breakercall.New(threshold, 500, clock.Now)", "%s: the blip table must name its breaker", d.file)
			require.Contains(t, d.text, "sim.Blip(10, 100, 10, 3, 100)", "%s: the blip table must name its requests", d.file)
			tb := d.table(t, lg.blipHeader, 3)
			for _, r := range tb.rows {
				threshold := lg.integer(t, d, r, r.cells[0])
				clock := &sim.Clock{}
				b := breakercall.New(threshold, 500, clock.Now)
				ok, failed, refused, probe := 0, 0, 0, -1
				wasOpen := false
				// One request at a time, so that the state can be read after each.
				for _, req := range sim.Blip(10, 100, 10, 3, 100) {
					res := sim.Run(clock, b.Call, []sim.Request{req})[0]
					switch {
					case !res.Ran:
						refused++
					case res.Err != nil:
						failed++
					default:
						ok++
						if wasOpen && probe < 0 {
							probe = res.Start
						}
					}
					wasOpen = wasOpen || b.State() == "open"
				}
				require.Equal(t, float64(ok), lg.number(t, d, r, r.cells[1]), r.at(d, "threshold %d: succeeded", threshold))
				require.Equal(t, float64(failed), lg.number(t, d, r, r.cells[2]), r.at(d, "threshold %d: failed by the downstream", threshold))
				require.Equal(t, float64(refused), lg.number(t, d, r, r.cells[3]), r.at(d, "threshold %d: refused by the breaker", threshold))
				if threshold == 1 {
					require.Positive(t, probe, "threshold 1 must probe after the slip")
					ftPhrase(t, d, lg.blipSentence, ftNumberWord(lg, refused), strconv.Itoa(probe))
					ftPhrase(t, d, lg.blipPitfall, ftNumberWord(lg, refused))
				}
			}
		})
	}
}

// ftVariantConfigs are the rate breakers of the variants table, columns 3
// to 5; column 2 is the exercise's breaker with threshold 3.
var ftVariantConfigs = []sim.RateConfig{
	{Window: 10, MinCalls: 1, FailurePct: 50, Wait: 5000},
	{Window: 10, MinCalls: 5, FailurePct: 50, Wait: 5000},
	{Window: 10, MinCalls: 5, FailurePct: 50, SlowMs: 1000, SlowPct: 50, Wait: 5000},
}

var ftDownstreamRE = regexp.MustCompile("`sim\\.(Failing|Alternating|FailFirst|Blip|Slow)\\(([\\d, ]+)\\)`")

// ftDownstream makes the requests a variants row names in its first cell.
func ftDownstream(t *testing.T, d *ftDoc, r ftRow) []sim.Request {
	t.Helper()
	m := ftDownstreamRE.FindStringSubmatch(r.cells[0])
	require.NotNil(t, m, r.at(d, "the downstream must be named as a call of sim: %q", r.cells[0]))
	var a []int
	for _, f := range strings.Split(m[2], ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		require.NoError(t, err, r.at(d, "%s", m[0]))
		a = append(a, n)
	}
	want := map[string]int{"Failing": 2, "Alternating": 4, "FailFirst": 5, "Blip": 5, "Slow": 3}[m[1]]
	require.Len(t, a, want, r.at(d, "%s takes %d arguments", m[0], want))
	switch m[1] {
	case "Failing":
		return sim.Failing(a[0], a[1])
	case "Alternating":
		return sim.Alternating(a[0], a[1], a[2], a[3])
	case "FailFirst":
		return sim.FailFirst(a[0], a[1], a[2], a[3], a[4])
	case "Blip":
		return sim.Blip(a[0], a[1], a[2], a[3], a[4])
	}
	return sim.Slow(a[0], a[1], a[2])
}

// TestFehlertoleranzBreakerVariants replays the table that sets the
// exercise's breaker (failures in a row) beside failure-rate breakers over
// a sliding window: after which call each one first opens on each
// downstream, from the reference solution and the simulator.
func TestFehlertoleranzBreakerVariants(t *testing.T) {
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.code, "breakercall.New(3, 5000, clock.Now)", "%s: the variants must name the breaker in a row", d.file)
			for _, cfg := range ftVariantConfigs {
				lit := fmt.Sprintf("Window: %d, MinCalls: %d, FailurePct: %d, ", cfg.Window, cfg.MinCalls, cfg.FailurePct)
				if cfg.SlowMs > 0 {
					lit += fmt.Sprintf("SlowMs: %d, SlowPct: %d, ", cfg.SlowMs, cfg.SlowPct)
				}
				lit = "sim.RateConfig{" + lit + fmt.Sprintf("Wait: %d}", cfg.Wait)
				require.Contains(t, d.code, lit, "%s: the variants' code must show the breaker of its table", d.file)
			}
			tb := d.table(t, lg.variantsHeader, 5)
			for _, r := range tb.rows {
				reqs := ftDownstream(t, d, r)
				var got []int
				clock := &sim.Clock{}
				inARow := breakercall.New(3, 5000, clock.Now)
				got = append(got, sim.OpensAt(clock, inARow.Call, inARow.State, reqs))
				for _, cfg := range ftVariantConfigs {
					clock := &sim.Clock{}
					b := sim.NewRateBreaker(cfg, clock.Now)
					got = append(got, sim.OpensAt(clock, b.Call, b.State, reqs))
				}
				for i, n := range got {
					cell := ftClean(r.cells[i+1])
					if n == 0 {
						require.Equal(t, lg.never, cell, r.at(d, "%s: the breaker %q never opens", ftClean(r.cells[0]), tb.header[i+1]))
						continue
					}
					require.Equal(t, strconv.Itoa(n), cell, r.at(d, "%s: the breaker %q opens after call %d", ftClean(r.cells[0]), tb.header[i+1], n))
				}
			}
			// "When each one fits" compares the two on a broken downstream.
			down := sim.Failing(20, 100)
			clock1 := &sim.Clock{}
			row := breakercall.New(3, 5000, clock1.Now)
			clock2 := &sim.Clock{}
			rate := sim.NewRateBreaker(ftVariantConfigs[1], clock2.Now)
			ftPhrase(t, d, map[string]string{"de": "(nach %s Aufrufen, wo die Quote hier %s braucht)", "en": "(after %s calls, where the rate needs %s here)"}[lg.code],
				ftNumberWord(lg, sim.OpensAt(clock1, row.Call, row.State, down)), ftNumberWord(lg, sim.OpensAt(clock2, rate.Call, rate.State, down)))
			// The code block's example: the rate breaker with a minimum on F, S, F, S.
			clock := &sim.Clock{}
			b := sim.NewRateBreaker(ftVariantConfigs[1], clock.Now)
			n := sim.OpensAt(clock, b.Call, b.State, sim.Alternating(20, 100, 10, 100))
			require.Contains(t, d.code, fmt.Sprintf("fmt.Println(n) // %d:", n), "%s: the variants' example prints %d", d.file, n)
		})
	}
}

// ftNumberWord writes small counts as words, as the prose does.
func ftNumberWord(lg ftLang, n int) string {
	words := map[string][]string{
		"de": {"null", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"},
		"en": {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"},
	}[lg.code]
	if n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// TestFehlertoleranzRetry replays five attempts, naive and with backoff
// 50·2ⁿ ms.
func TestFehlertoleranzRetry(t *testing.T) {
	naive := sim.Retry(&sim.Clock{}, 5, sim.NoDelay)
	spread := sim.Retry(&sim.Clock{}, 5, sim.Exponential(50))
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.code, "sim.Exponential(50)", "%s: the retry table must name its backoff", d.file)
			tb := d.table(t, lg.retryHeader, 5)
			for i, r := range tb.rows {
				require.Equal(t, i+1, lg.integer(t, d, r, r.cells[0]), r.at(d, "attempts are numbered 1, 2, ..."))
				wait := 0
				if i > 0 {
					wait = spread[i] - spread[i-1]
				}
				require.Equal(t, float64(naive[i]), lg.number(t, d, r, r.cells[1]), r.at(d, "attempt %d: naive time", i+1))
				require.Equal(t, float64(wait), lg.number(t, d, r, r.cells[2]), r.at(d, "attempt %d: wait before", i+1))
				require.Equal(t, float64(spread[i]), lg.number(t, d, r, r.cells[3]), r.at(d, "attempt %d: time with backoff", i+1))
			}
			ftPhrase(t, d, lg.retrySentence, strconv.Itoa(spread[4]-spread[0]))
			require.Zero(t, naive[4]-naive[0], "the naive burst spans no time")
		})
	}
}

// TestFehlertoleranzBulkhead replays the shared pool of 5, the separate
// pools of 3 and 2, and the splits of the chapter's second exercise.
func TestFehlertoleranzBulkhead(t *testing.T) {
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.text, "bulkheadpool.New(5)", "%s: the shared table must name its pool", d.file)
			require.Contains(t, d.text, "bulkheadpool.New(3)", "%s: the separate table must name its pools", d.file)
			require.Contains(t, d.text, "bulkheadpool.New(2)", "%s: the separate table must name its pools", d.file)

			shared := bulkheadpool.New(5)
			tb := d.table(t, lg.sharedHeader, 6)
			for i, r := range tb.rows {
				require.Equal(t, i+1, lg.integer(t, d, r, r.cells[0]), r.at(d, "requests are numbered 1, 2, ..."))
				service := ftClean(r.cells[1])
				require.Equal(t, map[bool]string{true: "checkout", false: "recommendations"}[i == 5], service, r.at(d, "five recommendations, then the checkout"))
				require.Equal(t, shared.TryAcquire(), lg.yesNo(t, d, r, r.cells[2]), r.at(d, "request %d: TryAcquire", i+1))
				require.Equal(t, float64(shared.InUse()), lg.number(t, d, r, r.cells[3]), r.at(d, "request %d: in use after", i+1))
			}

			pools := map[string]*bulkheadpool.Pool{"recommendations": bulkheadpool.New(3), "checkout": bulkheadpool.New(2)}
			tb = d.table(t, lg.isolatedHeader, 5)
			for i, r := range tb.rows {
				require.Equal(t, i+1, lg.integer(t, d, r, r.cells[0]), r.at(d, "requests are numbered 1, 2, ..."))
				service := ftClean(r.cells[1])
				require.Equal(t, map[bool]string{true: "checkout", false: "recommendations"}[i == 4], service, r.at(d, "four recommendations, then the checkout"))
				require.Equal(t, pools[service].TryAcquire(), lg.yesNo(t, d, r, r.cells[2]), r.at(d, "request %d: TryAcquire", i+1))
				want := fmt.Sprintf("%d / %d", pools["recommendations"].InUse(), pools["checkout"].InUse())
				require.Equal(t, want, ftClean(r.cells[3]), r.at(d, "request %d: in use", i+1))
			}

			tb = d.table(t, lg.splitHeader, 5)
			for _, r := range tb.rows {
				setup := ftClean(r.cells[0])
				var sizes []int
				for _, f := range strings.FieldsFunc(setup, func(r rune) bool { return r == ' ' || r == '+' }) {
					if n, err := strconv.Atoi(f); err == nil {
						sizes = append(sizes, n)
					}
				}
				var recs, checkout *bulkheadpool.Pool
				switch {
				case strings.HasPrefix(setup, lg.shared) && len(sizes) == 1:
					recs = bulkheadpool.New(sizes[0])
					checkout = recs
				case strings.HasPrefix(setup, lg.separate) && len(sizes) == 2:
					recs, checkout = bulkheadpool.New(sizes[0]), bulkheadpool.New(sizes[1])
				default:
					require.Failf(t, "unknown split", r.at(d, "%q is neither %q N nor %q N + M", setup, lg.shared, lg.separate))
				}
				total := 0
				for _, n := range sizes {
					total += n
				}
				// The slow service takes slots until none is left.
				for i := 0; i < 1000 && recs.TryAcquire(); i++ {
				}
				require.Equal(t, float64(total), lg.number(t, d, r, r.cells[1]), r.at(d, "%s: connections in total", setup))
				require.Equal(t, float64(recs.InUse()), lg.number(t, d, r, r.cells[2]), r.at(d, "%s: recommendations holds", setup))
				require.Equal(t, checkout.TryAcquire(), lg.yesNo(t, d, r, r.cells[3]), r.at(d, "%s: checkout gets one?", setup))
			}
		})
	}
}

// ftServices are the lesson's gateway dependencies, in order.
var ftServices = []string{"order", "stock", "reviews"}

// TestFehlertoleranzGateway replays the aggregating gateway: which
// services it calls and what the client gets, resilient and brittle.
func TestFehlertoleranzGateway(t *testing.T) {
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.code, `{"reviews": [], "note": "reviews temporarily unavailable"}`, "%s: the chapter's fallback", d.file)
			tb := d.table(t, lg.gatewayHeader, 4)
			for _, r := range tb.rows {
				situation := ftClean(r.cells[0])
				failing := ""
				if situation != lg.allHealthy {
					failing = strings.TrimSpace(strings.TrimSuffix(situation, lg.down))
					require.Contains(t, ftServices, failing, r.at(d, "situation %q names no service", situation))
				}
				var resilient bool
				switch ftClean(r.cells[1]) {
				case lg.resilient:
					resilient = true
				case lg.brittle:
				default:
					require.Failf(t, "unknown gateway", r.at(d, "%q is neither %q nor %q", r.cells[1], lg.resilient, lg.brittle))
				}

				var called []string
				service := func(name, answer string, fail bool) func() (string, error) {
					return func() (string, error) {
						called = append(called, name)
						if fail {
							return "", errors.New(name + " unavailable")
						}
						return answer, nil
					}
				}
				var parts []gateway.Part
				for _, s := range ftServices {
					p := gateway.Part{Name: s, Primary: service(s, s, s == failing)}
					if s == "reviews" && resilient {
						p.Fallback = service("reviews "+lg.fallback, `{"reviews": [], "note": "reviews temporarily unavailable"}`, false)
					}
					parts = append(parts, p)
				}
				g := gateway.New()
				answers, degraded, err := g.Aggregate(parts)

				gotCalled := strings.ReplaceAll(ftClean(r.cells[2]), "reviews-"+lg.fallback, "reviews "+lg.fallback)
				require.Equal(t, strings.Join(called, ", "), gotCalled, r.at(d, "%s, %s: services called", situation, r.cells[1]))
				response := ftClean(r.cells[3])
				if err != nil {
					require.True(t, strings.HasPrefix(response, lg.errorWord), r.at(d, "%s, %s: the response is an error, the cell should start with %q", situation, r.cells[1], lg.errorWord))
				} else {
					require.False(t, strings.HasPrefix(response, lg.errorWord), r.at(d, "%s, %s: the response is no error", situation, r.cells[1]))
					for name := range answers {
						require.Contains(t, response, name, r.at(d, "%s: the response holds %s", situation, name))
					}
					require.Equal(t, len(degraded) > 0, strings.Contains(response, lg.fallback), r.at(d, "%s: the response says whether a fallback answered", situation))
				}
				require.Equal(t, float64(g.Degraded()), lg.number(t, d, r, r.cells[4]), r.at(d, "%s, %s: Degraded()", situation, r.cells[1]))
			}
		})
	}
}

// TestFehlertoleranzSummaries checks the figures in the connections table
// and the quick reference, which repeat the results above.
func TestFehlertoleranzSummaries(t *testing.T) {
	results, three, _ := ftBreakerRun(3)
	_, base, _ := ftBreakerRun(0)
	refused := 0
	for _, r := range results {
		if !r.Ran {
			refused++
		}
	}
	naive := sim.Retry(&sim.Clock{}, 5, sim.NoDelay)
	spread := sim.Retry(&sim.Clock{}, 5, sim.Exponential(50))
	// With reviews down, the resilient gateway keeps the answers that
	// succeeded and adds the fallback; the brittle one loses every part.
	ok := func() (string, error) { return "x", nil }
	down := func() (string, error) { return "", errors.New("down") }
	parts := []gateway.Part{{Name: "order", Primary: ok}, {Name: "stock", Primary: ok}, {Name: "reviews", Primary: down, Fallback: ok}}
	answers, degraded, err := gateway.New().Aggregate(parts)
	require.NoError(t, err)
	kept := len(answers) - len(degraded)
	parts[2].Fallback = nil
	brittle, _, err := gateway.New().Aggregate(parts)
	require.Error(t, err)
	lost := len(parts) - len(brittle)
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			ratioText := lg.pct(three, base)
			burst := map[string]string{
				"de": fmt.Sprintf("%d ms gegen %d ms für dieselben %d Versuche", naive[4]-naive[0], spread[4]-spread[0], len(spread)),
				"en": fmt.Sprintf("%d ms against %d ms for the same %d attempts", naive[4]-naive[0], spread[4]-spread[0], len(spread)),
			}[lg.code]
			tb := d.table(t, lg.connectsHeader, 3)
			require.Contains(t, tb.rows[0].cells[0], ratioText, tb.rows[0].at(d, "the breaker's saving"))
			require.Contains(t, tb.rows[1].cells[0], burst, tb.rows[1].at(d, "burst against backoff"))
			require.Contains(t, tb.rows[2].cells[0], strconv.Itoa(kept), tb.rows[2].at(d, "the brittle gateway discards the %d successful results", kept))

			quick := map[string][]string{
				"de": {
					fmt.Sprintf("nur %s der Zeit, die ohne Breaker verloren geht; %d von %d Aufrufen scheitern sofort", ratioText, refused, len(results)),
					fmt.Sprintf("%d ms Spanne statt %d ms für dieselben %d Versuche", spread[4]-spread[0], naive[4]-naive[0], len(spread)),
					"gemeinsamer Pool: checkout abgewiesen; getrennte Pools: checkout bekommt seine Verbindung",
					fmt.Sprintf("robust: %d gelungene Ergebnisse plus Fallback; spröde: alle %d verloren", kept, lost),
				},
				"en": {
					fmt.Sprintf("only %s of the time lost without one; %d of %d calls fail at once", ratioText, refused, len(results)),
					fmt.Sprintf("%d ms spread instead of %d ms for the same %d attempts", spread[4]-spread[0], naive[4]-naive[0], len(spread)),
					"shared pool: checkout refused; separate pools: checkout gets its connection",
					fmt.Sprintf("resilient: %d successful results plus the fallback; brittle: all %d lost", kept, lost),
				},
			}[lg.code]
			tb = d.table(t, lg.quickHeader, 4)
			for i, r := range tb.rows {
				require.Contains(t, r.cells[2], quick[i], r.at(d, "quick reference, row %d", i+1))
			}
		})
	}
}

var (
	ftStepRE   = regexp.MustCompile("`(At|CallOK|CallFail)\\((\\d+)\\)`")
	ftResultRE = regexp.MustCompile("`(nil|errDown|ErrOpen)`")
	ftStateRE  = regexp.MustCompile(`\b(closed|open|half_open)\b`)
	ftMinusRE  = regexp.MustCompile(`(\d+) (?:minus) (\d+) (?:ist|is) (\d+)`)
	ftClockRE  = regexp.MustCompile(`\b(?:bei|at|reads) (\d+)`)
)

// TestFehlertoleranzSequence replays the example run of exercise 1 with
// the check's notation: each row's steps in order; the expected column
// names the results, the state after the row and the clock.
func TestFehlertoleranzSequence(t *testing.T) {
	for _, lg := range ftLangs {
		t.Run(lg.code, func(t *testing.T) {
			d := ftLoad(t, lg.code)
			require.Contains(t, d.text, "breakercall.New(1, 100, clock.Now)", "%s: the sequence must name its breaker", d.file)
			tb := d.table(t, lg.sequenceHeader, 4)
			clock := &sim.Clock{}
			b := breakercall.New(1, 100, clock.Now)
			openedAt := -1
			for _, r := range tb.rows {
				steps := ftStepRE.FindAllStringSubmatch(r.cells[0], -1)
				require.NotEmpty(t, steps, r.at(d, "the step names no call"))
				var results []string
				callAt := -1
				for _, s := range steps {
					n, _ := strconv.Atoi(s[2])
					switch s[1] {
					case "At":
						clock.AdvanceTo(n)
					default:
						callAt = clock.Now()
						res := sim.Run(clock, b.Call, []sim.Request{{At: clock.Now(), Cost: n, Fail: s[1] == "CallFail"}})[0]
						results = append(results, ftErrName(res.Err))
						if b.State() == "open" && res.Ran {
							openedAt = res.End
						}
					}
				}
				expected := r.cells[1]
				var want []string
				for _, m := range ftResultRE.FindAllStringSubmatch(expected, -1) {
					want = append(want, m[1])
				}
				require.Equal(t, results, want, r.at(d, "results of %s", ftClean(r.cells[0])))
				if st := ftStateRE.FindAllString(ftResultRE.ReplaceAllString(expected, ""), -1); len(st) > 0 {
					require.Equal(t, b.State(), st[len(st)-1], r.at(d, "state after %s", ftClean(r.cells[0])))
				}
				for _, m := range ftMinusRE.FindAllStringSubmatch(expected, -1) {
					x, _ := strconv.Atoi(m[1])
					y, _ := strconv.Atoi(m[2])
					z, _ := strconv.Atoi(m[3])
					require.Equal(t, callAt, x, r.at(d, "%s: the call is made at %d", m[0], callAt))
					require.Equal(t, openedAt, y, r.at(d, "%s: the breaker opened at %d", m[0], openedAt))
					require.Equal(t, x-y, z, r.at(d, "%s: the arithmetic", m[0]))
				}
				if m := ftClockRE.FindAllStringSubmatch(expected, -1); len(m) > 0 {
					n, _ := strconv.Atoi(m[len(m)-1][1])
					require.Equal(t, clock.Now(), n, r.at(d, "the clock after %s", ftClean(r.cells[0])))
				}
			}
		})
	}
}

var (
	ftHTMLTag    = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(\s[^>]*)?/?>`)
	ftInlineCode = regexp.MustCompile("`[^`]*`")
)

// TestFehlertoleranzStructure checks the form of both files and their
// parity: the same sections, code blocks, tables and trace markers.
func TestFehlertoleranzStructure(t *testing.T) {
	de, en := ftLoad(t, "de"), ftLoad(t, "en")
	must := map[string][]string{
		"de": {"## Merksatz", "## Prüfstein", "## Stolperfallen", "## Übungen", "## Quelle"},
		"en": {"## Key takeaway", "## Checkpoint", "## Pitfalls", "## Exercises", "## Source"},
	}
	for _, d := range []*ftDoc{de, en} {
		lang := strings.TrimSuffix(filepath.Base(d.file), ".md")
		require.True(t, strings.HasPrefix(d.text, "# "), "%s: must start with a level-1 heading", d.file)
		require.Equal(t, 1, strings.Count(d.text, "\n# ")+1, "%s: one level-1 heading", d.file)
		for _, h := range must[lang] {
			require.Contains(t, d.headings, h, "%s: needs the section %q", d.file, h)
		}
		require.Regexp(t, "(?m)^```mermaid\\s*\\n\\s*stateDiagram-v2\\b", d.text, "%s: needs the state diagram", d.file)
		for _, f := range d.fences {
			require.Contains(t, []string{"go", "mermaid"}, f, "%s: code blocks must be go or mermaid, found %q", d.file, f)
		}
		for _, l := range d.prose {
			text := strings.TrimSpace(l.text)
			if strings.HasPrefix(text, "<!-- kurs:trace ") && strings.HasSuffix(text, " -->") {
				continue // a marker for kurs validate; goldmark drops comments
			}
			require.False(t, ftHTMLTag.MatchString(ftInlineCode.ReplaceAllString(l.text, "")), "%s:%d: raw HTML is not allowed: %s", d.file, l.n, l.text)
		}
		for _, id := range []string{"breakercall", "bulkheadpool", "gateway"} {
			require.Contains(t, d.text, "kurs check "+id, "%s: must say how to check %s", d.file, id)
		}
	}
	require.Equal(t, len(de.headings), len(en.headings), "%s and %s: different number of sections", de.file, en.file)
	for i := range de.headings {
		require.Equal(t, strings.Fields(de.headings[i])[0], strings.Fields(en.headings[i])[0], "%s and %s: section %d has another level (%q, %q)", de.file, en.file, i+1, de.headings[i], en.headings[i])
	}
	require.Equal(t, de.fences, en.fences, "%s and %s: different code blocks", de.file, en.file)
	require.Equal(t, de.markers, en.markers, "%s and %s: different trace markers", de.file, en.file)
	require.Equal(t, len(de.tables), len(en.tables), "%s and %s: different number of tables", de.file, en.file)
	for i := range de.tables {
		dt, et := de.tables[i], en.tables[i]
		require.Equal(t, len(dt.header), len(et.header), "table %d (%s:%d, %s:%d): different number of columns", i+1, de.file, dt.line, en.file, et.line)
		require.Equal(t, len(dt.rows), len(et.rows), "table %d (%s:%d, %s:%d): different number of rows", i+1, de.file, dt.line, en.file, et.line)
	}
}
