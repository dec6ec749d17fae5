package lessons_test

// These tests keep the lesson resilienz-1 honest: every table in
// resilienz-1/de.md and resilienz-1/en.md is recomputed from the reference
// solutions of backoff and retrybudget and from the simulations in
// exercises/retrybudget/sim, the prose figures that state a result are
// recomputed too, the example tables in the exercises' task texts are
// replayed, and the two languages are checked for point-by-point parity.
// A failure names the file and line that differ from the code.
//
// Every identifier here starts with r1, because other lessons add test
// files to this package.

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	backoff "github.com/kurs-course/kurs/exercises/backoff/solution"
	"github.com/kurs-course/kurs/exercises/retrybudget/sim"
	retrybudget "github.com/kurs-course/kurs/exercises/retrybudget/solution"
	"github.com/kurs-course/kurs/internal/harness"
)

// The scenarios of the lesson. The text states each of them; r1Config
// checks that it does.

// r1SlotConfig is service A of step 1: B hangs from tick 3 on.
func r1SlotConfig(timeout, ticks int) sim.SlotConfig {
	return sim.SlotConfig{
		Slots: 10, ToB: 2, Local: 2, Timeout: timeout, Ticks: ticks,
		Latency: func(t int) int {
			if t >= 3 {
				return 10
			}
			return 1
		},
	}
}

// r1Policy is one way the clients of the storm retry.
type r1Policy struct {
	maxAttempts     int
	backoff, budget bool
}

// r1Policies are the rows of the comparison table, in order.
var r1Policies = []r1Policy{
	{maxAttempts: 1},
	{maxAttempts: 4},
	{maxAttempts: 4, backoff: true},
	{maxAttempts: 4, budget: true},
	{maxAttempts: 4, backoff: true, budget: true},
}

// r1Storm runs the storm of steps 2 and 3 with a policy: 8 new requests
// per tick, capacity 10 (2 in ticks 10 to 14), timeout 3, 5 % errors.
func r1Storm(p r1Policy) sim.StormResult {
	c := sim.StormConfig{
		Ticks: 80, NewPerTick: 8, Timeout: 3, ErrorRate: 0.05, MaxAttempts: p.maxAttempts, Seed: 1,
		Capacity: func(t int) int {
			if t >= r1TriggerFrom && t < r1TriggerTo {
				return 2
			}
			return 10
		},
	}
	if p.backoff {
		c.Backoff = func() sim.Delayer { return backoff.New(1, 16) }
	}
	if p.budget {
		c.Budget = retrybudget.New(0.1, 1, 10)
	}
	return sim.Storm(c)
}

// The trigger of the storm, and the quiet ticks whose losses the
// comparison table counts.
const (
	r1TriggerFrom, r1TriggerTo = 10, 15
	r1QuietFrom                = 40
)

// r1Herd is the herd of step 3: 1000 clients, 4 retries each.
func r1Herd(jitter bool) []int {
	return sim.Herd(1000, 4, func() sim.Delayer { return backoff.New(4, 32) }, jitter, 1)
}

// r1Lang holds what a language's lesson writes: table headers, row labels
// and the words around numbers.
type r1Lang struct {
	lang
	and, capped, dash                                                     string
	slots, timeouts, fanout, storm, spread, backoff, herd, budget, policy []string
	// textTables are the headers of the tables that hold no results (a
	// comparison of APIs, method descriptions); every other table must be
	// one of the checked ones above.
	textTables [][]string
	herdRows   []string
	policyRows []string
	sections   []string
	// summary headers of the example tables in the exercises' task texts.
	backoffExample, budgetExample []string
	prose                         func(r *r1Results) []string
}

var r1Langs = []r1Lang{
	{
		lang: lang{code: "de", yes: "ja", no: "nein", decimal: ","},
		and:  "und", capped: "gedeckelt", dash: "–",
		slots:    []string{"Tick", "Antwortzeit von B", "belegte Slots", "abgewiesen: B-Aufrufe", "abgewiesen: lokal"},
		timeouts: []string{"Tick", "Timeout 2: belegt", "Timeout 2: abgewiesen", "Timeout 5: belegt", "Timeout 5: abgewiesen", "Timeout 5: davon lokal"},
		fanout:   []string{"Schichten mit Retries", "Aufrufe ganz unten bei 2 Versuchen pro Schicht", "bei 4 Versuchen pro Schicht"},
		storm:    []string{"Tick", "ohne Retries: gesendet", "erfolgreich", "Warteschlange", "3 Retries sofort: gesendet", "erfolgreich", "Warteschlange"},
		spread:   []string{"Versuch", "ohne Pause: Zeitpunkt in ms", "mit Backoff: Zeitpunkt in ms"},
		backoff:  []string{"Aufruf", "n = `b.Attempt()` vorher", "Obergrenze min(1000, 50 · 2ⁿ)", "Wartezeit (Ergebnis)", "`b.Attempt()` danach"},
		herd:     []string{"Kennzahl", "ohne Jitter (`Next(1)`)", "mit Full Jitter"},
		budget:   []string{"Aufruf", "Ergebnis", "`b.Left()` danach", "Warum"},
		policy:   []string{"Strategie", "Versuche pro Anfrage", "erfolgreiche Anfragen", "aufgegebene Anfragen in Tick 40 bis 79", "letzter Timeout in Tick"},
		textTables: [][]string{
			{"Konzept", "JS/TS", "Go (hier)"},
			{"Methode", "Verhalten"},
		},
		herdRows: []string{"Versuche insgesamt", "Ticks, in denen Versuche ankommen", "höchste Zahl an Versuchen in einem Tick nach Tick 0", "letzter Versuch in Tick"},
		policyRows: []string{
			"keine Retries", "3 Retries sofort", "3 Retries mit Backoff und Full Jitter",
			"3 Retries sofort, mit Budget", "3 Retries mit Backoff, Full Jitter und Budget",
		},
		sections: []string{
			"## Worum es geht", "## Konzept",
			"### Schritt 1:", "### Schritt 2:", "### Schritt 3:",
			"## Von JS/TS her gedacht", "## Stolperfallen", "## Übungen", "### Übung 1:", "### Übung 2:", "### Übung 3:",
			"## Merksatz", "## Prüfstein", "## Quelle",
		},
		backoffExample: []string{"Aufruf", "Ergebnis", "`Attempt()` danach"},
		budgetExample:  []string{"Aufruf", "Ergebnis", "`b.Left()` danach"},
		prose: func(r *r1Results) []string {
			return []string{
				fmt.Sprintf("ab Tick %d sind alle %d Slots belegt", r.firstFull, r.slots),
				fmt.Sprintf("Ab Tick %d weist A jede Anfrage ab", r.firstAllRejected),
				fmt.Sprintf("Im Normalbetrieb sind das %s", r.littleNormal),
				fmt.Sprintf("bräuchte A %s Slots", r.littleHang),
				fmt.Sprintf("bleibt A bei %s belegten Slots", r.littleTimeout2),
				fmt.Sprintf("denn %s Slots wären nötig", r.littleTimeout5),
				fmt.Sprintf("eine Schlange von %d Versuchen auf", r.queueAfterTrigger),
				fmt.Sprintf("in Tick %d ist sie leer", r.queueEmpty),
				fmt.Sprintf("Ab Tick %d schicken die Clients in jedem Tick %d Versuche, %d neue Anfragen mal %d Versuche", r.stormTick, r.stormSent, r.newPerTick, r.attempts),
				fmt.Sprintf("in Tick %d warten %d Versuche", r.lastTick, r.lastQueue),
				fmt.Sprintf("seit Tick %d vorbei", r1TriggerTo),
				fmt.Sprintf("über %s ms verteilt", fmtNum(r.spread, ",")),
				fmt.Sprintf("in den Ticks %s gleichzeitig zurück", r.waves("und")),
				fmt.Sprintf("über %d Ticks verteilt", r.jitterTicks),
				fmt.Sprintf("sinkt auf %d", r.jitterPeak),
				fmt.Sprintf("In %d Ticks kommen %d Anfragen an", r.ticks, r.requests),
				fmt.Sprintf("(letzter Timeout in Tick %d)", r.policy[0].LastTimeout),
				fmt.Sprintf("(%d in den Ticks %d bis %d)", r.quietLost[0], r1QuietFrom, r.ticks-1),
				fmt.Sprintf("(%s statt %s pro Anfrage)", r.amp(2, ","), r.amp(1, ",")),
				fmt.Sprintf("auf %s pro Anfrage", r.amp(3, ",")),
				fmt.Sprintf("(letzter Timeout in Tick %d)", r.policy[3].LastTimeout),
				fmt.Sprintf("%d statt %d erfolgreiche Anfragen", r.policy[3].Succeeded, r.policy[0].Succeeded),
				fmt.Sprintf("keinen Vorteil (%d statt %d)", r.policy[4].Succeeded, r.policy[3].Succeeded),
				fmt.Sprintf("Wiederholen App, API und Dienst je bis zu %smal, also mit je %s Versuchen, kommen unten bis zu %d Aufrufe an",
					deWords[r.pitfallRetries], deWords[r.pitfallRetries+1], r.fanout3),
				fmt.Sprintf("Mit bis zu %s Retries pro Schicht, also %s Versuchen, wären es %d Aufrufe",
					deWords[r.pitfallRetries+1], deWords[r.pitfallRetries+2], r.fanoutOneMore),
				fmt.Sprintf("`b.Next(1)` liefert %s, ein zweites `b.Next(1)` liefert %s, `b.Next(0.5)` liefert %s (Obergrenze %s, davon die Hälfte), und `b.Attempt()` ist danach %d",
					r.example[0], r.example[1], r.example[2], r.example[3], r.exampleAttempt),
				fmt.Sprintf("`b.Next(1)` liefert wieder %s", r.example[4]),
				fmt.Sprintf("sie macht %d Versuche in Folge", r.checkRun),
			}
		},
	},
	{
		lang: lang{code: "en", yes: "yes", no: "no", decimal: "."},
		and:  "and", capped: "capped", dash: "–",
		slots:    []string{"Tick", "B's response time", "occupied slots", "rejected: calls to B", "rejected: local"},
		timeouts: []string{"Tick", "timeout 2: occupied", "timeout 2: rejected", "timeout 5: occupied", "timeout 5: rejected", "timeout 5: of them local"},
		fanout:   []string{"Layers with retries", "calls at the very bottom with 2 attempts per layer", "with 4 attempts per layer"},
		storm:    []string{"Tick", "without retries: sent", "succeeded", "queue", "3 immediate retries: sent", "succeeded", "queue"},
		spread:   []string{"Attempt", "without a pause: time in ms", "with backoff: time in ms"},
		backoff:  []string{"Call", "n = `b.Attempt()` before", "upper bound min(1000, 50 · 2ⁿ)", "wait (result)", "`b.Attempt()` afterwards"},
		herd:     []string{"Figure", "without jitter (`Next(1)`)", "with full jitter"},
		budget:   []string{"Call", "Result", "`b.Left()` afterwards", "Why"},
		policy:   []string{"Strategy", "attempts per request", "requests succeeded", "requests given up in ticks 40 to 79", "last timeout in tick"},
		textTables: [][]string{
			{"Concept", "JS/TS", "Go (here)"},
			{"Method", "Behaviour"},
		},
		herdRows: []string{"attempts in total", "ticks in which attempts arrive", "most attempts in one tick after tick 0", "last attempt in tick"},
		policyRows: []string{
			"no retries", "3 immediate retries", "3 retries with backoff and full jitter",
			"3 immediate retries, with a budget", "3 retries with backoff, full jitter and a budget",
		},
		sections: []string{
			"## What this is about", "## Concept",
			"### Step 1:", "### Step 2:", "### Step 3:",
			"## Coming from JS/TS", "## Pitfalls", "## Exercises", "### Exercise 1:", "### Exercise 2:", "### Exercise 3:",
			"## Key takeaway", "## Checkpoint", "## Source",
		},
		backoffExample: []string{"Call", "Result", "`Attempt()` afterwards"},
		budgetExample:  []string{"Call", "Result", "`b.Left()` afterwards"},
		prose: func(r *r1Results) []string {
			return []string{
				fmt.Sprintf("from tick %d on all %d slots are occupied", r.firstFull, r.slots),
				fmt.Sprintf("From tick %d on, A rejects every request", r.firstAllRejected),
				fmt.Sprintf("In normal operation that is %s", r.littleNormal),
				fmt.Sprintf("A would need %s slots", r.littleHang),
				fmt.Sprintf("A stays at %s occupied slots", r.littleTimeout2),
				fmt.Sprintf("because %s slots would be needed", r.littleTimeout5),
				fmt.Sprintf("a queue of %d attempts builds up", r.queueAfterTrigger),
				fmt.Sprintf("in tick %d it is empty", r.queueEmpty),
				fmt.Sprintf("From tick %d on, the clients send %d attempts in every tick, %d new requests times %d attempts", r.stormTick, r.stormSent, r.newPerTick, r.attempts),
				fmt.Sprintf("in tick %d there are %d attempts waiting", r.lastTick, r.lastQueue),
				fmt.Sprintf("over since tick %d", r1TriggerTo),
				fmt.Sprintf("spread over %s ms", fmtNum(r.spread, ".")),
				fmt.Sprintf("at the same time in ticks %s", r.waves("and")),
				fmt.Sprintf("spread over %d ticks", r.jitterTicks),
				fmt.Sprintf("drops to %d", r.jitterPeak),
				fmt.Sprintf("In %d ticks, %d requests arrive", r.ticks, r.requests),
				fmt.Sprintf("(last timeout in tick %d)", r.policy[0].LastTimeout),
				fmt.Sprintf("(%d in ticks %d to %d)", r.quietLost[0], r1QuietFrom, r.ticks-1),
				fmt.Sprintf("(%s instead of %s per request)", r.amp(2, "."), r.amp(1, ".")),
				fmt.Sprintf("to %s per request", r.amp(3, ".")),
				fmt.Sprintf("(last timeout in tick %d)", r.policy[3].LastTimeout),
				fmt.Sprintf("%d instead of %d requests succeed", r.policy[3].Succeeded, r.policy[0].Succeeded),
				fmt.Sprintf("no advantage here (%d instead of %d)", r.policy[4].Succeeded, r.policy[3].Succeeded),
				fmt.Sprintf("If app, API and service each retry up to %s times, that is %s attempts each, up to %d calls arrive at the bottom",
					enWords[r.pitfallRetries], enWords[r.pitfallRetries+1], r.fanout3),
				fmt.Sprintf("with up to %s retries per layer, that is %s attempts, it would be %d calls",
					enWords[r.pitfallRetries+1], enWords[r.pitfallRetries+2], r.fanoutOneMore),
				fmt.Sprintf("`b.Next(1)` returns %s, a second `b.Next(1)` returns %s, `b.Next(0.5)` returns %s (upper bound %s, half of it), and `b.Attempt()` is %d afterwards",
					r.example[0], r.example[1], r.example[2], r.example[3], r.exampleAttempt),
				fmt.Sprintf("`b.Next(1)` returns %s again", r.example[4]),
				fmt.Sprintf("it makes %d attempts in a row", r.checkRun),
			}
		},
	},
}

// Number words for the pitfalls' counts, as the prose spells them.
var (
	deWords = map[int]string{3: "drei", 4: "vier", 5: "fünf"}
	enWords = map[int]string{3: "three", 4: "four", 5: "five"}
)

// r1Results are the figures the prose states, computed once.
type r1Results struct {
	slots, firstFull, firstAllRejected                              int
	littleNormal, littleHang, littleTimeout2, littleTimeout5        string
	queueAfterTrigger, queueEmpty, stormTick, stormSent, newPerTick int
	attempts, lastTick, lastQueue                                   int
	spread                                                          float64
	waveTicks                                                       []int
	jitterTicks, jitterPeak                                         int
	ticks, requests                                                 int
	policy                                                          []sim.StormResult
	quietLost                                                       []int
	fanout3, fanoutOneMore, pitfallRetries                          int
	example                                                         []string
	exampleAttempt, checkRun                                        int
}

// waves lists the ticks of the waves without jitter, e.g. "4, 12, 28 and 60".
func (r *r1Results) waves(and string) string {
	s := make([]string, len(r.waveTicks))
	for i, t := range r.waveTicks {
		s[i] = strconv.Itoa(t)
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + and + " " + s[len(s)-1]
}

// amp formats the attempts per request of policy i as the table does.
func (r *r1Results) amp(i int, decimal string) string {
	return strings.ReplaceAll(strconv.FormatFloat(r.policy[i].Amplification(), 'f', 2, 64), ".", decimal)
}

func r1Compute(t *testing.T) *r1Results {
	t.Helper()
	r := &r1Results{slots: 10, firstFull: -1, firstAllRejected: -1}
	c := r1SlotConfig(0, 30)
	for _, s := range sim.Slots(c) {
		if r.firstFull < 0 && s.Busy == c.Slots {
			r.firstFull = s.Tick
		}
		if r.firstAllRejected < 0 && s.RejectedToB+s.RejectedLocal == c.ToB+c.Local {
			r.firstAllRejected = s.Tick
		}
	}
	// Little's law, checked against the simulation's steady state.
	little := func(hold, wantBusy int) string {
		n := c.ToB*hold + c.Local*1
		if wantBusy >= 0 {
			require.Equal(t, wantBusy, n, "Little's law for holding time %d", hold)
		}
		// No-break spaces, as in the lesson: a formula never breaks across
		// lines.
		return strings.ReplaceAll(fmt.Sprintf("%d × %d + %d × 1 = %d", c.ToB, hold, c.Local, n), " ", "\u00a0")
	}
	steady := func(timeout int) int { return sim.Slots(r1SlotConfig(timeout, 30))[29].Busy }
	r.littleNormal = little(1, sim.Slots(r1SlotConfig(0, 1))[0].Busy)
	r.littleHang = little(10, -1) // more than the slots: the simulation can only show 10
	r.littleTimeout2 = little(2, steady(2))
	r.littleTimeout5 = little(5, -1)
	require.Greater(t, c.ToB*10+c.Local, c.Slots)
	require.Greater(t, c.ToB*5+c.Local, c.Slots)

	none, immediate := r1Storm(r1Policies[0]), r1Storm(r1Policies[1])
	r.queueAfterTrigger = none.Ticks[r1TriggerTo-1].Queue
	r.queueEmpty = -1
	for _, s := range none.Ticks[r1TriggerTo:] {
		if s.Queue == 0 {
			r.queueEmpty = s.Tick
			break
		}
	}
	// The tick from which on the retrying clients send the most they can
	// in every tick.
	r.newPerTick, r.attempts = 8, 4
	r.stormSent, r.stormTick = r.newPerTick*r.attempts, len(immediate.Ticks)
	for i := len(immediate.Ticks) - 1; i >= 0 && immediate.Ticks[i].Sent == r.stormSent; i-- {
		r.stormTick = i
	}
	require.Less(t, r.stormTick, len(immediate.Ticks), "the storm never reaches 8 × 4 attempts per tick")
	last := immediate.Ticks[len(immediate.Ticks)-1]
	r.lastTick, r.lastQueue = last.Tick, last.Queue

	b := backoff.New(50, 1000)
	for range 4 {
		r.spread += b.Next(1)
	}
	for i, n := range r1Herd(false) {
		if i > 0 && n > 0 {
			r.waveTicks = append(r.waveTicks, i)
		}
	}
	jitter := r1HerdFigures(r1Herd(true))
	r.jitterTicks, r.jitterPeak = jitter[1], jitter[2]

	for _, p := range r1Policies {
		res := r1Storm(p)
		r.policy = append(r.policy, res)
		lost := 0
		for _, s := range res.Ticks[r1QuietFrom:] {
			lost += s.GaveUp
		}
		r.quietLost = append(r.quietLost, lost)
	}
	r.ticks, r.requests = len(none.Ticks), none.Requests
	// Pitfall 1: three layers (app, API, service) that each retry up to
	// three times make four attempts each; one retry more per layer makes
	// five attempts and 5³ calls, not 4³.
	r.pitfallRetries = 3
	r.fanout3 = sim.Fanout(3, r.pitfallRetries+1)
	r.fanoutOneMore = sim.Fanout(3, r.pitfallRetries+2)
	require.Equal(t, 64, r.fanout3, "the fan-out table's last row")
	require.Equal(t, 125, r.fanoutOneMore)

	ex := backoff.New(10, 100)
	for _, rnd := range []float64{1, 1, 0.5} {
		r.example = append(r.example, harness.Float(ex.Next(rnd)))
	}
	r.exampleAttempt = ex.Attempt()
	r.example = append(r.example, harness.Float(backoff.New(40, math.Inf(1)).Next(1)))
	ex.Reset()
	r.example = append(r.example, harness.Float(ex.Next(1)))

	// The longest run of Next(1) in the backoff's hidden tests.
	for _, tc := range r1Suite(t, "backoff").Tests {
		run := 0
		for _, s := range tc.Steps {
			if s.Call == "Next" && len(s.Args) == 1 && s.Args[0] == 1 {
				run++
				r.checkRun = max(r.checkRun, run)
			} else {
				run = 0
			}
		}
	}
	return r
}

// r1HerdFigures returns the herd table's figures: attempts in total, ticks
// with attempts, the most attempts in one tick after tick 0, the last tick.
func r1HerdFigures(perTick []int) [4]int {
	var f [4]int
	for i, n := range perTick {
		f[0] += n
		if n > 0 {
			f[1]++
			f[3] = i
		}
		if i > 0 {
			f[2] = max(f[2], n)
		}
	}
	return f
}

func r1Suite(t *testing.T, id string) harness.Suite {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "exercises", id, "testdata", "suite.json"))
	require.NoError(t, err)
	var s harness.Suite
	require.NoError(t, json.Unmarshal(data, &s))
	return s
}

func r1Load(t *testing.T, code string) *lesson {
	t.Helper()
	path := filepath.Join("resilienz-1", code+".md")
	data, err := os.ReadFile(path)
	require.NoError(t, err, "read lesson file %s", path)
	l := &lesson{file: "lessons/resilienz-1/" + code + ".md", text: string(data)}
	l.parse()
	return l
}

// r1Ints checks that the cells from the second on hold want, in order.
func (lg r1Lang) r1Ints(t *testing.T, l *lesson, r row, header []string, want ...int) {
	t.Helper()
	for i, w := range want {
		got := lg.integer(t, l, r, r.cells[i+1])
		require.Equal(t, w, got, r.where(l, fmt.Sprintf("%s: %s should be %d", clean(r.cells[0]), clean(header[i+1]), w)))
	}
}

// TestResilienz1SlotTable replays step 1: service A without a timeout.
func TestResilienz1SlotTable(t *testing.T) {
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.slots)
			require.Len(t, tb.rows, 12, "%s:%d: the table covers ticks 0 to 11", l.file, tb.line)
			res := sim.Slots(r1SlotConfig(0, len(tb.rows)))
			for i, r := range tb.rows {
				require.Equal(t, i, lg.integer(t, l, r, r.cells[0]), r.where(l, "ticks must run 0, 1, 2, ..."))
				s := res[i]
				lg.r1Ints(t, l, r, lg.slots, s.Latency, s.Busy, s.RejectedToB, s.RejectedLocal)
			}
		})
	}
}

// TestResilienz1TimeoutTable replays step 3's timeouts: the same service
// with timeout 2 and timeout 5.
func TestResilienz1TimeoutTable(t *testing.T) {
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.timeouts)
			require.NotEmpty(t, tb.rows)
			last := lg.integer(t, l, tb.rows[len(tb.rows)-1], tb.rows[len(tb.rows)-1].cells[0])
			t2, t5 := sim.Slots(r1SlotConfig(2, last+1)), sim.Slots(r1SlotConfig(5, last+1))
			first := lg.integer(t, l, tb.rows[0], tb.rows[0].cells[0])
			require.Equal(t, 3, first, "%s:%d: the table starts when B begins to hang", l.file, tb.line)
			for i, r := range tb.rows {
				tick := lg.integer(t, l, r, r.cells[0])
				require.Equal(t, first+i, tick, r.where(l, "ticks must follow each other"))
				a, b := t2[tick], t5[tick]
				lg.r1Ints(t, l, r, lg.timeouts, a.Busy, a.RejectedToB+a.RejectedLocal, b.Busy, b.RejectedToB+b.RejectedLocal, b.RejectedLocal)
			}
		})
	}
}

// TestResilienz1FanoutTable recomputes the calls that reach the bottom of
// a chain of retrying layers.
func TestResilienz1FanoutTable(t *testing.T) {
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.fanout)
			require.Len(t, tb.rows, 3, "%s:%d: one to three layers", l.file, tb.line)
			for i, r := range tb.rows {
				layers := lg.integer(t, l, r, r.cells[0])
				require.Equal(t, i+1, layers, r.where(l, "layers must run 1, 2, 3"))
				lg.r1Ints(t, l, r, lg.fanout, sim.Fanout(layers, 2), sim.Fanout(layers, 4))
			}
		})
	}
}

// TestResilienz1StormTable replays step 2: the storm without retries and
// with three immediate retries, at the ticks the table shows.
func TestResilienz1StormTable(t *testing.T) {
	none, immediate := r1Storm(r1Policies[0]), r1Storm(r1Policies[1])
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.storm)
			require.GreaterOrEqual(t, len(tb.rows), 8, "%s:%d: the storm table", l.file, tb.line)
			prev := -1
			for _, r := range tb.rows {
				tick := lg.integer(t, l, r, r.cells[0])
				require.Greater(t, tick, prev, r.where(l, "ticks must grow"))
				require.Less(t, tick, len(none.Ticks), r.where(l, "the run has 80 ticks"))
				prev = tick
				a, b := none.Ticks[tick], immediate.Ticks[tick]
				lg.r1Ints(t, l, r, lg.storm, a.Sent, a.Good, a.Queue, b.Sent, b.Good, b.Queue)
			}
			require.Equal(t, len(none.Ticks)-1, prev, "%s:%d: the last row is the run's last tick", l.file, tb.line)
		})
	}
}

// TestResilienz1SpreadTable replays the source's experiment: five attempts
// at once, and five with backoff.New(50, 1000) without jitter.
func TestResilienz1SpreadTable(t *testing.T) {
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.spread)
			require.Len(t, tb.rows, 5, "%s:%d: five attempts, as in the source", l.file, tb.line)
			b := backoff.New(50, 1000)
			at := 0.0
			for i, r := range tb.rows {
				require.Equal(t, i+1, lg.integer(t, l, r, r.cells[0]), r.where(l, "attempts must run 1 to 5"))
				if i > 0 {
					at += b.Next(1)
				}
				require.InDelta(t, 0, lg.number(t, l, r, r.cells[1]), 1e-9, r.where(l, "without a pause every attempt is at 0"))
				require.InDelta(t, at, lg.number(t, l, r, r.cells[2]), 1e-9, r.where(l, fmt.Sprintf("attempt %d with backoff should be at %s", i+1, fmtNum(at, lg.decimal))))
			}
		})
	}
}

var r1NextRE = regexp.MustCompile(`^b\.Next\(([0-9.]+)\)$`)

// TestResilienz1BackoffTable replays the walkthrough of backoff.New(50,
// 1000) on the reference; the upper bound comes from the reference too,
// from a twin that always draws 1, and the uncapped one from a twin
// without a cap.
func TestResilienz1BackoffTable(t *testing.T) {
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			require.True(t, strings.Contains(l.text, "b := backoff.New(50, 1000)"), "%s: the table must name its backoff", l.file)
			tb := l.find(t, lg.backoff)
			b, bound, uncapped := backoff.New(50, 1000), backoff.New(50, 1000), backoff.New(50, math.Inf(1))
			for _, r := range tb.rows {
				m := r1NextRE.FindStringSubmatch(clean(r.cells[0]))
				require.NotNil(t, m, r.where(l, "a row calls b.Next(rnd)"))
				rnd, err := strconv.ParseFloat(m[1], 64)
				require.NoError(t, err)
				n := b.Attempt()
				ceiling, raw := bound.Next(1), uncapped.Next(1)
				wait := b.Next(rnd)
				lg.r1Ints(t, l, r, lg.backoff, n)
				require.InDelta(t, ceiling, lg.number(t, l, r, r.cells[2]), 1e-9, r.where(l, fmt.Sprintf("upper bound at n = %d", n)))
				if raw > ceiling {
					require.Contains(t, r.cells[2], fmtNum(raw, lg.decimal)+" "+lg.capped, r.where(l, "a capped bound names what it was capped from"))
				} else {
					require.NotContains(t, r.cells[2], lg.capped, r.where(l, "this bound is not capped"))
				}
				require.InDelta(t, wait, lg.number(t, l, r, r.cells[3]), 1e-9, r.where(l, fmt.Sprintf("Next(%s) should return %s", m[1], fmtNum(wait, lg.decimal))))
				require.Equal(t, b.Attempt(), lg.integer(t, l, r, r.cells[4]), r.where(l, "Attempt() afterwards"))
			}
			require.True(t, slices.ContainsFunc(tb.rows, func(r row) bool { return strings.Contains(r.cells[2], lg.capped) }),
				"%s:%d: the table must reach the cap", l.file, tb.line)
		})
	}
}

// TestResilienz1HerdTable recomputes the herd with and without jitter.
func TestResilienz1HerdTable(t *testing.T) {
	plain, jitter := r1HerdFigures(r1Herd(false)), r1HerdFigures(r1Herd(true))
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.herd)
			require.Len(t, tb.rows, len(lg.herdRows), "%s:%d", l.file, tb.line)
			for i, r := range tb.rows {
				require.Equal(t, lg.herdRows[i], clean(r.cells[0]), r.where(l, "row label"))
				lg.r1Ints(t, l, r, lg.herd, plain[i], jitter[i])
			}
		})
	}
}

var r1BudgetCallRE = regexp.MustCompile(`^b\.(Request|CanRetry)\((\d+)\)$`)

// TestResilienz1BudgetTable replays the walkthrough of
// retrybudget.New(0.5, 1, 5) on the reference.
func TestResilienz1BudgetTable(t *testing.T) {
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			require.True(t, strings.Contains(l.text, "b := retrybudget.New(0.5, 1, 5)"), "%s: the table must name its budget", l.file)
			tb := l.find(t, lg.budget)
			b := retrybudget.New(0.5, 1, 5)
			var sawFalse, sawNegative bool
			for _, r := range tb.rows {
				m := r1BudgetCallRE.FindStringSubmatch(clean(r.cells[0]))
				require.NotNil(t, m, r.where(l, "a row calls b.Request(now) or b.CanRetry(now)"))
				now, _ := strconv.Atoi(m[2])
				want := lg.dash
				if m[1] == "Request" {
					b.Request(now)
				} else {
					ok := b.CanRetry(now)
					want, sawFalse = "`"+strconv.FormatBool(ok)+"`", sawFalse || !ok
				}
				require.Equal(t, want, strings.TrimSpace(r.cells[1]), r.where(l, "result of "+m[0]))
				require.InDelta(t, b.Left(), lg.number(t, l, r, r.cells[2]), 1e-9, r.where(l, fmt.Sprintf("Left() after %s should be %s", m[0], fmtNum(b.Left(), lg.decimal))))
				sawNegative = sawNegative || b.Left() < 0
			}
			require.True(t, sawFalse && sawNegative, "%s:%d: the walkthrough should show a refusal and a negative budget", l.file, tb.line)
		})
	}
}

// TestResilienz1PolicyTable recomputes the comparison of step 3: the storm
// under each policy.
func TestResilienz1PolicyTable(t *testing.T) {
	r := r1Compute(t)
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			tb := l.find(t, lg.policy)
			require.Len(t, tb.rows, len(r1Policies), "%s:%d", l.file, tb.line)
			for i, rw := range tb.rows {
				require.Equal(t, lg.policyRows[i], clean(rw.cells[0]), rw.where(l, "row label"))
				require.Equal(t, r.amp(i, lg.decimal), clean(rw.cells[1]), rw.where(l, "attempts per request, two decimals"))
				p := r.policy[i]
				rest := rw
				rest.cells = append([]string{rw.cells[0]}, rw.cells[2:]...)
				lg.r1Ints(t, l, rest, append([]string{lg.policy[0]}, lg.policy[2:]...), p.Succeeded, r.quietLost[i], p.LastTimeout)
			}
		})
	}
}

// TestResilienz1Prose checks the figures the running text states and the
// scenarios it describes.
func TestResilienz1Prose(t *testing.T) {
	r := r1Compute(t)
	require.Len(t, r.waveTicks, 4, "the herd without jitter comes in four waves")
	// The claims the comparison paragraph makes in words.
	end := r.ticks - 1
	require.Equal(t, end, r.policy[1].LastTimeout, "immediate retries stay overloaded to the end")
	require.Equal(t, end, r.policy[2].LastTimeout, "backoff alone changes nothing about that")
	require.Less(t, r.policy[0].LastTimeout, end, "without retries the system recovers")
	require.Less(t, r.policy[3].LastTimeout, end, "with a budget the system recovers")
	require.Less(t, r.quietLost[3], r.quietLost[0], "the budget rescues more in quiet times")
	require.Zero(t, r.quietLost[3], "with a budget no request is lost in quiet times")
	require.Less(t, r.policy[3].Succeeded, r.policy[0].Succeeded, "the budget costs something over the whole run")
	for _, q := range r1Storm(r1Policies[0]).Ticks[:r1TriggerFrom] {
		require.Equal(t, 8, q.Sent, "the requests arrive evenly")
	}
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			l := r1Load(t, lg.code)
			for _, want := range lg.prose(r) {
				require.True(t, strings.Contains(l.text, want), "%s: the text should say %q (computed from the reference and the simulation)", l.file, want)
			}
			for _, config := range []string{
				"`sim.Slots`", "`sim.Storm`", "`sim.Herd`", "`sim.Fanout`",
				"`backoff.New(1, 16)`", "`retrybudget.New(0.1, 1, 10)`", "`backoff.New(4, 32)`", "`backoff.New(50, 1000)`",
			} {
				require.True(t, strings.Contains(l.text, config), "%s: the text should name %s, which computes its numbers", l.file, config)
			}
		})
	}
}

// TestResilienz1ExerciseExamples replays the example tables in the task
// texts of backoff and retrybudget, in both languages.
func TestResilienz1ExerciseExamples(t *testing.T) {
	summaries := map[string]map[string]string{}
	for _, id := range []string{"backoff", "retrybudget"} {
		summaries[id] = map[string]string{}
		for _, lg := range r1Langs {
			data, err := os.ReadFile(filepath.Join("..", "exercises", id, "task."+lg.code+".md"))
			require.NoError(t, err)
			summaries[id][lg.code] = string(data)
		}
	}
	callRE := regexp.MustCompile(`b\.(Next|Reset|Request|CanRetry)\(([0-9.]*)\)`)
	codeRE := regexp.MustCompile("`([^`]*)`")
	for _, lg := range r1Langs {
		t.Run(lg.code, func(t *testing.T) {
			for _, id := range []string{"backoff", "retrybudget"} {
				text := summaries[id][lg.code]
				l := &lesson{file: fmt.Sprintf("exercises/%s/task.%s.md", id, lg.code), text: text}
				l.parse()
				header, newCall := lg.backoffExample, "b := New(10, 100)"
				if id == "retrybudget" {
					header, newCall = lg.budgetExample, "b := New(0.5, 1, 5)"
				}
				require.True(t, strings.Contains(text, newCall), "%s: the example names its constructor %q", l.file, newCall)
				tb := l.find(t, header)
				bo, bu := backoff.New(10, 100), retrybudget.New(0.5, 1, 5)
				for _, r := range tb.rows {
					calls := callRE.FindAllStringSubmatch(r.cells[0], -1)
					require.NotEmpty(t, calls, r.where(l, "a row names its calls"))
					var rets []string
					for _, c := range calls {
						arg, _ := strconv.ParseFloat(c[2], 64)
						switch c[1] {
						case "Next":
							rets = append(rets, harness.Float(bo.Next(arg)))
						case "Reset":
							bo.Reset()
						case "Request":
							bu.Request(int(arg))
						case "CanRetry":
							rets = append(rets, harness.Bool(bu.CanRetry(int(arg))))
						}
					}
					var got []string
					for _, m := range codeRE.FindAllStringSubmatch(r.cells[1], -1) {
						got = append(got, m[1])
					}
					if len(rets) == 0 {
						require.Equal(t, lg.dash, strings.TrimSpace(r.cells[1]), r.where(l, "a call without a result"))
					} else {
						require.Equal(t, rets, got, r.where(l, "results of "+clean(r.cells[0])))
					}
					obs := strconv.Itoa(bo.Attempt())
					if id == "retrybudget" {
						obs = harness.Float(bu.Left())
					}
					require.Equal(t, obs, strings.Trim(clean(r.cells[2]), " "), r.where(l, "observed after "+clean(r.cells[0])))
				}
			}
		})
	}
}

// TestResilienz1Structure checks the form of both files and their parity.
func TestResilienz1Structure(t *testing.T) {
	de, en := r1Load(t, "de"), r1Load(t, "en")
	for i, l := range []*lesson{de, en} {
		lg := r1Langs[i]
		require.True(t, strings.HasPrefix(l.text, "# "), "%s: must start with a level-1 heading", l.file)
		require.Regexp(t, "(?m)^```mermaid\\s*\\n\\s*stateDiagram-v2\\b", l.text, "%s: needs a ```mermaid block with stateDiagram-v2", l.file)
		require.Equal(t, 1, strings.Count(l.text, "```mermaid"), "%s: one diagram", l.file)
		for _, f := range l.fences {
			require.Contains(t, []string{"go", "mermaid"}, f, "%s: code blocks must be go or mermaid, found %q", l.file, f)
		}
		for _, p := range l.prose {
			n, text, _ := strings.Cut(p, "\x00")
			if strings.HasPrefix(text, "<!-- kurs:trace ") {
				continue // ties a table to a trace for kurs validate; invisible
			}
			require.False(t, htmlTag.MatchString(inlineCode.ReplaceAllString(text, "")), "%s:%s: raw HTML is not allowed: %s", l.file, n, text)
			require.NotContains(t, text, "<!--", "%s:%s: comments other than kurs:trace markers", l.file, n)
		}
		at := 0
		for _, s := range lg.sections {
			i := slices.IndexFunc(l.headings[at:], func(h string) bool { return strings.HasPrefix(h, s) })
			require.GreaterOrEqual(t, i, 0, "%s: section %q missing or out of order", l.file, s)
			at += i + 1
		}
		checked := [][]string{lg.slots, lg.timeouts, lg.fanout, lg.storm, lg.spread, lg.backoff, lg.herd, lg.budget, lg.policy}
		for _, tb := range l.tables {
			known := func(h []string) bool { return slices.Equal(h, tb.header) }
			require.True(t, slices.ContainsFunc(checked, known) || slices.ContainsFunc(lg.textTables, known),
				"%s:%d: a table this test does not check: | %s |", l.file, tb.line, strings.Join(tb.header, " | "))
			for _, r := range tb.rows {
				require.Len(t, r.cells, len(tb.header), r.where(l, "row has a different number of cells than its header"))
			}
		}
		var a []string
		for _, c := range quizOf(t, "retryquiz").Quiz {
			a = append(a, c.Answer)
		}
		for _, spoiler := range []string{
			fmt.Sprintf("{%q, %q, %q}", a[0], a[1], a[2]),
			fmt.Sprintf("(%q, %q, %q)", a[0], a[1], a[2]),
		} {
			require.False(t, strings.Contains(l.text, spoiler), "%s: reveals the quiz answer", l.file)
		}
	}
	require.Equal(t, len(de.headings), len(en.headings), "%s and %s: different number of headings", de.file, en.file)
	for i := range de.headings {
		dl, el := strings.Index(de.headings[i], " "), strings.Index(en.headings[i], " ")
		require.Equal(t, dl, el, "%s and %s: heading %d has a different level (%q vs %q)", de.file, en.file, i+1, de.headings[i], en.headings[i])
	}
	require.Equal(t, de.fences, en.fences, "%s and %s: different code blocks", de.file, en.file)
	require.Equal(t, len(de.tables), len(en.tables), "%s and %s: different number of tables", de.file, en.file)
	for i := range de.tables {
		dt, et := de.tables[i], en.tables[i]
		require.Equal(t, len(dt.header), len(et.header), "table %d (%s:%d, %s:%d): different number of columns", i+1, de.file, dt.line, en.file, et.line)
		require.Equal(t, len(dt.rows), len(et.rows), "table %d (%s:%d, %s:%d): different number of rows", i+1, de.file, dt.line, en.file, et.line)
		for j := range dt.rows {
			// Calls and numbers stand in the same places in both
			// languages; only the decimal separator differs.
			dc, ec := clean(dt.rows[j].cells[0]), clean(et.rows[j].cells[0])
			if strings.HasPrefix(dc, "b.") || strings.HasPrefix(ec, "b.") {
				require.Equal(t, dc, ec, "table %d row %d (%s:%d, %s:%d): different calls", i+1, j+1, de.file, dt.rows[j].line, en.file, et.rows[j].line)
			}
		}
	}
	// The Go code is the same in both languages except for its comments.
	code := regexp.MustCompile("(?s)```go\n(.*?)```")
	strip := regexp.MustCompile(`//[^\n]*`)
	dg, eg := code.FindAllStringSubmatch(de.text, -1), code.FindAllStringSubmatch(en.text, -1)
	require.Equal(t, len(dg), len(eg))
	for i := range dg {
		require.Equal(t, strip.ReplaceAllString(dg[i][1], ""), strip.ReplaceAllString(eg[i][1], ""), "Go block %d differs between %s and %s beyond its comments", i+1, de.file, en.file)
	}
}
