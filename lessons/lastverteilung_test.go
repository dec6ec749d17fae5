package lessons_test

// These tests keep the lesson lastverteilung honest: every figure in its
// tables is recomputed here from the course's own code (the simulator in
// exercises/leastconn/sim and the reference solutions of leastconn and
// twochoices), the worked examples are replayed, and the German and English
// files are checked point by point. The simulation tables take a while
// (about 40 runs of 5 × 300,000 requests), so -short skips them.
//
// To print the tables the lesson should hold, in both languages:
//
//	go test ./lessons -run TestLastverteilungTables -lbtables

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kurs-course/kurs/exercises/leastconn/sim"
	leastconn "github.com/kurs-course/kurs/exercises/leastconn/solution"
	twochoices "github.com/kurs-course/kurs/exercises/twochoices/solution"
	"github.com/kurs-course/kurs/internal/course"
)

var lbPrint = flag.Bool("lbtables", false, "print the tables of the lesson lastverteilung as computed")

const lbDir = "lastverteilung"

// The model of the lesson, as the seed describes it: 16 single-server FIFO
// backends, lognormal service times, 300,000 requests per run of which the
// first 20,000 are discarded, five runs with fixed seeds.
const (
	lbBackends = 16
	lbRequests = 300000
	lbWarmup   = 20000
	lbRuns     = 5
	lbSigma    = 1.0
	// lbAlpha is the weight least time gives a new measurement.
	lbAlpha = 0.1
	// lbSessionLength is the mean number of requests of a sticky session.
	lbSessionLength = 100
	// lbBinsRuns is how many times bins.py throws the balls for each n.
	lbBinsRuns = 15
)

// lbSlow is the cluster with one slow backend: backend 0 at half speed.
var lbSlow = func() []float64 {
	s := make([]float64, lbBackends)
	for i := range s {
		s[i] = 1
	}
	s[0] = 0.5
	return s
}()

func lbConfig(load float64, speed []float64, balancers int) sim.Config {
	return sim.Config{Backends: lbBackends, Speed: speed, Load: load, Sigma: lbSigma,
		Requests: lbRequests, Warmup: lbWarmup, Runs: lbRuns, Seed: 1, Balancers: balancers}
}

// The reference solutions, as the simulator drives them.
type lbLeastConn struct{ b *leastconn.Balancer }

func (a lbLeastConn) Pick(*rand.Rand) int { return a.b.Pick() }
func (a lbLeastConn) Done(i int)          { a.b.Done(i) }

type lbTwoChoices struct {
	b *twochoices.Balancer
	n int
}

func (a lbTwoChoices) Pick(r *rand.Rand) int {
	x, y := sim.TwoDistinct(r, a.n)
	return a.b.Pick(x, y)
}
func (a lbTwoChoices) Done(i int) { a.b.Done(i) }

// lbPolicies are the five policies the seed's sim2.py compares.
var lbPolicies = map[string]func(n int) sim.Balancer{
	"random":     sim.NewRandom,
	"roundrobin": sim.NewRoundRobin,
	"leastconn":  func(n int) sim.Balancer { return lbLeastConn{leastconn.New(n)} },
	"leasttime":  func(n int) sim.Balancer { return sim.NewLeastTime(n, lbAlpha) },
	"twochoices": func(n int) sim.Balancer { return lbTwoChoices{twochoices.New(n), n} },
	// leastconnfirst breaks ties to the lowest index (a pitfall).
	"leastconnfirst": func(n int) sim.Balancer { return sim.NewCounting(n, sim.LeastConnFirst) },
}

// lbRun is one simulation the lesson quotes.
type lbRun struct {
	load      float64
	slow      bool
	policy    string  // a key of lbPolicies, or "leastconn"/"twochoices" with refresh
	balancers int     // independent balancers (0: one)
	refresh   float64 // > 0: a shared snapshot, refreshed this often
	weight    float64 // > 0: weighted round robin, this weight for the slow backend
	sessions  int     // > 0: sticky sessions
}

func (r lbRun) config() sim.Config {
	var speed []float64
	if r.slow {
		speed = lbSlow
	}
	return lbConfig(r.load, speed, r.balancers)
}

func (r lbRun) run() (sim.Result, error) {
	cfg := r.config()
	switch {
	case r.refresh > 0:
		choose := map[string]func() sim.Chooser{
			"leastconn":  sim.LeastConn,
			"twochoices": func() sim.Chooser { return sim.TwoChoices },
		}[r.policy]
		return sim.RunStale(cfg, r.refresh, choose)
	case r.weight > 0:
		w := make([]float64, lbBackends)
		copy(w, cfg.Speed)
		w[0] = r.weight
		return sim.Run(cfg, func(n int) sim.Balancer { return sim.NewWeighted(w, n) })
	case r.sessions > 0:
		return sim.RunSticky(cfg, r.sessions, lbSessionLength)
	}
	return sim.Run(cfg, lbPolicies[r.policy])
}

// lbFigures computes simulations once each, however many tables and
// languages quote them.
type lbFigures struct {
	mu   sync.Mutex
	runs map[lbRun]*lbResult
}

type lbResult struct {
	once sync.Once
	res  sim.Result
	err  error
}

var lbAll = &lbFigures{runs: map[lbRun]*lbResult{}}

func (f *lbFigures) get(r lbRun) sim.Result {
	f.mu.Lock()
	e := f.runs[r]
	if e == nil {
		e = &lbResult{}
		f.runs[r] = e
	}
	f.mu.Unlock()
	e.once.Do(func() { e.res, e.err = r.run() })
	if e.err != nil {
		panic(fmt.Sprintf("simulation %+v: %v", r, e.err))
	}
	return e.res
}

// warm runs the simulations on two goroutines (the machine's cores)
// before the tables ask for them one by one.
func (f *lbFigures) warm(runs []lbRun) {
	work := make(chan lbRun)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for r := range work {
				f.get(r)
			}
		})
	}
	for _, r := range runs {
		work <- r
	}
	close(work)
	wg.Wait()
}

// lbLang holds what differs between the languages.
type lbLang struct {
	code     string
	decimal  string
	thousand string
	policy   map[string]string // how the tables name the policies
}

var lbLangs = []lbLang{
	{code: "de", decimal: ",", thousand: ".", policy: map[string]string{
		"random": "Zufall", "roundrobin": "Round Robin", "leastconn": "Least Connections",
		"leasttime": "Least Time", "twochoices": "Zwei Wahlen",
	}},
	{code: "en", decimal: ".", thousand: ",", policy: map[string]string{
		"random": "Random", "roundrobin": "Round robin", "leastconn": "Least connections",
		"leasttime": "Least time", "twochoices": "Two choices",
	}},
}

// Cell formats. A wait gets three significant digits at most (two
// decimals below 10, one below 100, none above), a share of requests two
// decimals in per cent, a utilization and a ball count two decimals.
func (lg lbLang) wait(x float64) string {
	switch {
	case x < 10:
		return lg.num(x, 2)
	case x < 100:
		return lg.num(x, 1)
	}
	return lg.integer(int(math.Round(x)))
}

func (lg lbLang) num(x float64, decimals int) string {
	return strings.Replace(strconv.FormatFloat(x, 'f', decimals, 64), ".", lg.decimal, 1)
}

func (lg lbLang) pct(share float64) string { return lg.num(100*share, 2) }

// integer writes n with thousands separators, as the lesson's prose does.
func (lg lbLang) integer(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + lg.thousand + s[i:]
	}
	return s
}

// lbTable is a table of the lesson and how to compute its cells.
type lbTable struct {
	name   string
	header map[string][]string
	// rows returns the expected first cell of each row (its first word
	// for numbers, a prefix for names) and the other cells (their first
	// word), in the language lg.
	rows func(lg lbLang) [][]string
	// runs lists the simulations the table needs, to compute them ahead.
	runs []lbRun
}

func lbPolicyTable(name string, de, en []string, load float64, slow bool) lbTable {
	order := []string{"random", "roundrobin", "leastconn", "leasttime", "twochoices"}
	t := lbTable{name: name, header: map[string][]string{"de": de, "en": en}}
	for _, p := range order {
		t.runs = append(t.runs, lbRun{load: load, slow: slow, policy: p})
	}
	t.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for _, r := range t.runs {
			res := lbAll.get(r)
			row := []string{lg.policy[r.policy], lg.wait(res.Mean), lg.wait(res.P99)}
			if slow {
				row = append(row, lg.pct(res.Share[0]), lg.num(utilization(r, res), 2))
			}
			rows = append(rows, row)
		}
		return rows
	}
	return t
}

// utilization returns how busy the slow backend is: the requests it gets
// per time unit over the requests it can serve.
func utilization(r lbRun, res sim.Result) float64 {
	capacity := 0.0
	for _, s := range lbSlow {
		capacity += s
	}
	return res.Share[0] * r.load * capacity / lbSlow[0]
}

var (
	lbStickySessions = []int{5000, 500, 50}
	lbHerdBalancers  = []int{1, 4, 16, 64}
	lbRefreshes      = []float64{0.1, 1, 5, 20}
	lbWeights        = []float64{0.5, 1, 0.25}
	lbBinsN          = []int{100, 1000, 10000, 100000, 1000000}
	lbChoices        = []int{1, 2, 3, 10}
	lbChoicesN       = 1000000
)

// lbBins holds the balls-into-bins figures computed so far, by n and d:
// both languages' tables quote each, and the table of n bins and the one
// of d choices at a million bins share those of d = 1 and 2.
var lbBins = struct {
	sync.Mutex
	mean map[[2]int]float64
}{mean: map[[2]int]float64{}}

// lbMeanMaxLoad returns sim.MeanMaxLoad(n, d) over lbBinsRuns runs from
// the seed 1, computed once.
func lbMeanMaxLoad(n, d int) float64 {
	lbBins.Lock()
	defer lbBins.Unlock()
	m, ok := lbBins.mean[[2]int{n, d}]
	if !ok {
		m = sim.MeanMaxLoad(n, d, lbBinsRuns, 1)
		lbBins.mean[[2]int{n, d}] = m
	}
	return m
}

func lbTables() []lbTable {
	tables := []lbTable{
		lbPolicyTable("identical backends, 80% load",
			[]string{"Verfahren", "Wartezeit im Mittel", "Wartezeit p99"},
			[]string{"Policy", "Mean wait", "p99 wait"}, 0.8, false),
		lbPolicyTable("one slow backend, 80% load",
			[]string{"Verfahren", "Wartezeit im Mittel", "Wartezeit p99", "Anteil von Backend 0 in %", "Auslastung von Backend 0"},
			[]string{"Policy", "Mean wait", "p99 wait", "Share of backend 0 in %", "Utilization of backend 0"}, 0.8, true),
		lbPolicyTable("identical backends, 95% load",
			[]string{"Verfahren bei 95 % Last", "Wartezeit im Mittel", "Wartezeit p99"},
			[]string{"Policy at 95% load", "Mean wait", "p99 wait"}, 0.95, false),
	}

	weights := lbTable{name: "weighted round robin",
		header: map[string][]string{
			"de": {"Gewicht von Backend 0", "Wartezeit im Mittel", "Wartezeit p99", "Anteil von Backend 0 in %", "Auslastung von Backend 0"},
			"en": {"Weight of backend 0", "Mean wait", "p99 wait", "Share of backend 0 in %", "Utilization of backend 0"},
		}}
	for _, w := range lbWeights {
		weights.runs = append(weights.runs, lbRun{load: 0.8, slow: true, weight: w})
	}
	weights.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for _, r := range weights.runs {
			res := lbAll.get(r)
			rows = append(rows, []string{lg.param(r.weight), lg.wait(res.Mean), lg.wait(res.P99), lg.pct(res.Share[0]), lg.num(utilization(r, res), 2)})
		}
		return rows
	}

	sticky := lbTable{name: "sticky sessions",
		header: map[string][]string{
			"de": {"Gleichzeitig offene Sitzungen (je im Mittel 100 Anfragen)", "Wartezeit im Mittel", "Wartezeit p99"},
			"en": {"Sessions open at once (100 requests each on average)", "Mean wait", "p99 wait"},
		},
		runs: []lbRun{{load: 0.8, policy: "leastconn"}}}
	for _, s := range lbStickySessions {
		sticky.runs = append(sticky.runs, lbRun{load: 0.8, sessions: s})
	}
	sticky.rows = func(lg lbLang) [][]string {
		rows := [][]string{}
		for _, r := range sticky.runs {
			res := lbAll.get(r)
			first := map[string]string{"de": "keine", "en": "none"}[lg.code]
			if r.sessions > 0 {
				first = lg.integer(r.sessions)
			}
			rows = append(rows, []string{first, lg.wait(res.Mean), lg.wait(res.P99)})
		}
		return rows
	}

	herd := lbTable{name: "independent balancers",
		header: map[string][]string{
			"de": {"Balancer", "Least Connections: Mittel", "Least Connections: p99", "Zwei Wahlen: Mittel", "Zwei Wahlen: p99"},
			"en": {"Balancers", "Least connections: mean", "Least connections: p99", "Two choices: mean", "Two choices: p99"},
		}}
	for _, k := range lbHerdBalancers {
		herd.runs = append(herd.runs, lbRun{load: 0.95, policy: "leastconn", balancers: k}, lbRun{load: 0.95, policy: "twochoices", balancers: k})
	}
	herd.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for i := 0; i < len(herd.runs); i += 2 {
			lc, p2 := lbAll.get(herd.runs[i]), lbAll.get(herd.runs[i+1])
			rows = append(rows, []string{strconv.Itoa(herd.runs[i].balancers), lg.wait(lc.Mean), lg.wait(lc.P99), lg.wait(p2.Mean), lg.wait(p2.P99)})
		}
		return rows
	}

	stale := lbTable{name: "shared stale snapshot",
		header: map[string][]string{
			"de": {"Schnappschuss alle", "Least Connections: Mittel", "Least Connections: p99", "Zwei Wahlen: Mittel", "Zwei Wahlen: p99"},
			"en": {"Snapshot every", "Least connections: mean", "Least connections: p99", "Two choices: mean", "Two choices: p99"},
		}}
	for _, f := range lbRefreshes {
		stale.runs = append(stale.runs, lbRun{load: 0.95, policy: "leastconn", refresh: f}, lbRun{load: 0.95, policy: "twochoices", refresh: f})
	}
	stale.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for i := 0; i < len(stale.runs); i += 2 {
			lc, p2 := lbAll.get(stale.runs[i]), lbAll.get(stale.runs[i+1])
			f := stale.runs[i].refresh
			rows = append(rows, []string{lg.param(f), lg.wait(lc.Mean), lg.wait(lc.P99), lg.wait(p2.Mean), lg.wait(p2.P99)})
		}
		return rows
	}

	ties := lbTable{name: "ties",
		header: map[string][]string{
			"de": {"Gleichstand geht an", "Anteil von Backend 0 in % (ein Balancer, 80 % Last)", "Wartezeit im Mittel mit 64 Balancern (95 % Last)"},
			"en": {"A tie goes to", "Share of backend 0 in % (one balancer, 80% load)", "Mean wait with 64 balancers (95% load)"},
		},
		runs: []lbRun{
			{load: 0.8, policy: "leastconn"}, {load: 0.95, policy: "leastconn", balancers: 64},
			{load: 0.8, policy: "leastconnfirst"}, {load: 0.95, policy: "leastconnfirst", balancers: 64},
		}}
	ties.rows = func(lg lbLang) [][]string {
		labels := map[string][2]string{"de": {"das nächste Backend nach dem zuletzt gewählten", "das Backend mit dem kleinsten Index"}, "en": {"the next backend after the previous pick", "the backend with the lowest index"}}[lg.code]
		var rows [][]string
		for i := 0; i < 4; i += 2 {
			rows = append(rows, []string{labels[i/2], lg.pct(lbAll.get(ties.runs[i]).Share[0]), lg.wait(lbAll.get(ties.runs[i+1]).Mean)})
		}
		return rows
	}

	check := lbTable{name: "simulator against the Pollaczek-Khinchine formula",
		header: map[string][]string{
			"de": {"Last", "Zufall, simuliert", "Zufall, nach Formel"},
			"en": {"Load", "Random, simulated", "Random, by formula"},
		},
		runs: []lbRun{{load: 0.8, policy: "random"}, {load: 0.95, policy: "random"}}}
	check.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for _, r := range check.runs {
			rows = append(rows, []string{lg.num(100*r.load, 0), lg.wait(lbAll.get(r).Mean), lg.wait(pollaczekKhinchine(r.load, lbSigma))})
		}
		return rows
	}

	bins := lbTable{name: "balls into bins",
		header: map[string][]string{
			"de": {"n", "eine Wahl: vollster Korb", "ln n / ln ln n", "zwei Wahlen: vollster Korb", "ln ln n / ln 2"},
			"en": {"n", "one choice: fullest bin", "ln n / ln ln n", "two choices: fullest bin", "ln ln n / ln 2"},
		}}
	bins.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for _, n := range lbBinsN {
			ln := math.Log(float64(n))
			rows = append(rows, []string{lg.integer(n),
				lg.num(lbMeanMaxLoad(n, 1), 2), lg.num(ln/math.Log(ln), 2),
				lg.num(lbMeanMaxLoad(n, 2), 2), lg.num(math.Log(ln)/math.Log(2), 2)})
		}
		return rows
	}

	// What more choices buy at a million bins: the measured fullest bin
	// for d = 1, 2, 3 and 10, which the quiz's second case cites.
	choices := lbTable{name: "d choices at a million bins",
		header: map[string][]string{
			"de": {"Wahlen d (n = 1.000.000)", "vollster Korb"},
			"en": {"Choices d (n = 1,000,000)", "Fullest bin"},
		}}
	choices.rows = func(lg lbLang) [][]string {
		var rows [][]string
		for _, d := range lbChoices {
			rows = append(rows, []string{strconv.Itoa(d), lg.num(lbMeanMaxLoad(lbChoicesN, d), 2)})
		}
		return rows
	}

	return append(tables, weights, sticky, herd, stale, ties, check, bins, choices)
}

// param writes a parameter as short as it is: 1, 20, 0,5 or 0,25.
func (lg lbLang) param(x float64) string {
	return strings.Replace(strconv.FormatFloat(x, 'f', -1, 64), ".", lg.decimal, 1)
}

// pollaczekKhinchine returns the mean wait of an M/G/1 queue at the given
// utilization with lognormal service times of mean 1: rho·E[S²]/(2(1-rho)),
// where E[S²] = exp(sigma²). Random placement splits a Poisson stream into
// independent Poisson streams, so each backend is such a queue.
func pollaczekKhinchine(rho, sigma float64) float64 {
	return rho * math.Exp(sigma*sigma) / (2 * (1 - rho))
}

func lbLoad(t *testing.T, code string) *lesson {
	t.Helper()
	path := filepath.Join(lbDir, code+".md")
	data, err := os.ReadFile(path)
	require.NoError(t, err, "read lesson file %s", path)
	l := &lesson{file: filepath.ToSlash(filepath.Join("lessons", path)), text: string(data)}
	l.parse()
	return l
}

// lbFirst returns a cell's first word without the per cent sign.
func lbFirst(cell string) string { return strings.TrimSuffix(firstWord(cell), "%") }

// TestLastverteilungTables recomputes every simulation and balls-into-bins
// table of the lesson and compares it cell by cell.
func TestLastverteilungTables(t *testing.T) {
	if testing.Short() && !*lbPrint {
		t.Skip("the simulations take a while; run without -short")
	}
	tables := lbTables()
	var runs []lbRun
	for _, tb := range tables {
		runs = append(runs, tb.runs...)
	}
	lbAll.warm(runs)
	if *lbPrint {
		for _, lg := range lbLangs {
			for _, tb := range tables {
				fmt.Printf("%s: %s\n| %s |\n|%s\n", lg.code, tb.name, strings.Join(tb.header[lg.code], " | "), strings.Repeat("---|", len(tb.header[lg.code])))
				for _, r := range tb.rows(lg) {
					fmt.Printf("| %s |\n", strings.Join(r, " | "))
				}
				fmt.Println()
			}
		}
	}
	for _, lg := range lbLangs {
		t.Run(lg.code, func(t *testing.T) {
			l := lbLoad(t, lg.code)
			for _, tb := range tables {
				md := l.find(t, tb.header[lg.code])
				want := tb.rows(lg)
				require.Len(t, md.rows, len(want), "%s:%d: the table %q has %d rows", l.file, md.line, tb.name, len(want))
				for i, r := range md.rows {
					w := want[i]
					label := strings.HasPrefix(clean(r.cells[0]), w[0])
					if w[0] != "" && w[0][0] >= '0' && w[0][0] <= '9' {
						label = lbFirst(r.cells[0]) == w[0]
					}
					require.True(t, label, r.where(l, fmt.Sprintf("row %d of %q should be about %q, not %q", i+1, tb.name, w[0], r.cells[0])))
					for c := 1; c < len(w); c++ {
						require.Equal(t, w[c], lbFirst(r.cells[c]),
							r.where(l, fmt.Sprintf("%q, row %q, column %q: the simulation gives %s", tb.name, w[0], tb.header[lg.code][c], w[c])))
					}
				}
			}
		})
	}
}

// lbModel holds the model's parameters as the lesson's first table states
// them, in order.
func lbModel(lg lbLang) []string {
	return []string{
		strconv.Itoa(lbBackends),
		lg.integer(lbRequests),
		lg.integer(lbWarmup),
		strconv.Itoa(lbRuns),
		lg.num(lbSigma, 0),
		lg.num(math.Sqrt(math.Exp(lbSigma*lbSigma)-1), 2), // coefficient of variation of a lognormal
	}
}

// TestLastverteilungModel checks the table of the model's parameters
// against the constants the figures are computed with.
func TestLastverteilungModel(t *testing.T) {
	headers := map[string][]string{"de": {"Größe", "Wert"}, "en": {"Quantity", "Value"}}
	for _, lg := range lbLangs {
		t.Run(lg.code, func(t *testing.T) {
			l := lbLoad(t, lg.code)
			tb := l.find(t, headers[lg.code])
			want := lbModel(lg)
			require.Len(t, tb.rows, len(want), "%s:%d: the model table has %d rows", l.file, tb.line, len(want))
			for i, r := range tb.rows {
				require.Equal(t, want[i], firstWord(r.cells[1]), r.where(l, fmt.Sprintf("the model uses %s here", want[i])))
			}
		})
	}
}

// lbBalancer is what the worked examples show of a balancer besides Pick.
type lbBalancer interface {
	Done(i int)
	Active() []int
}

var lbCallRE = regexp.MustCompile(`^(Pick|Done)\(([0-9, ]*)\)$`)

// lbReplay replays a worked example: each row's call is made on the
// reference, and its result and Active() afterwards must match the row.
func lbReplay(t *testing.T, l *lesson, tb table, newCall string, b lbBalancer, pick func(args []int) int) {
	t.Helper()
	require.Contains(t, l.text, newCall, "%s: the example must name its balancer", l.file)
	require.NotEmpty(t, tb.rows, "%s:%d: the example has no rows", l.file, tb.line)
	for i, r := range tb.rows {
		require.Equal(t, strconv.Itoa(i+1), clean(r.cells[0]), r.where(l, "steps are numbered 1, 2, 3, ..."))
		m := lbCallRE.FindStringSubmatch(clean(r.cells[1]))
		require.NotNil(t, m, r.where(l, "the call must be Pick(...) or Done(i)"))
		var args []int
		for _, a := range strings.Split(m[2], ",") {
			if a = strings.TrimSpace(a); a != "" {
				n, err := strconv.Atoi(a)
				require.NoError(t, err, r.where(l, "argument"))
				args = append(args, n)
			}
		}
		if m[1] == "Pick" {
			got := pick(args)
			require.Equal(t, strconv.Itoa(got), firstWord(r.cells[2]), r.where(l, fmt.Sprintf("%s returns %d", clean(r.cells[1]), got)))
		} else {
			require.Len(t, args, 1, r.where(l, "Done takes one backend"))
			b.Done(args[0])
			require.Empty(t, clean(r.cells[2]), r.where(l, "Done returns nothing"))
		}
		require.Equal(t, fmt.Sprint(b.Active()), clean(r.cells[3]), r.where(l, "Active() afterwards"))
	}
}

// TestLastverteilungExamples replays the worked examples of the two
// exercises against the reference solutions; the same traces are hidden
// tests of the exercises.
func TestLastverteilungExamples(t *testing.T) {
	headers := map[string][]string{
		"de": {"Schritt", "Aufruf", "Ergebnis", "Active() danach"},
		"en": {"Step", "Call", "Result", "Active() afterwards"},
	}
	for _, lg := range lbLangs {
		t.Run(lg.code, func(t *testing.T) {
			l := lbLoad(t, lg.code)
			var found []table
			for _, tb := range l.tables {
				if strings.Join(lbClean(tb.header), "|") == strings.Join(headers[lg.code], "|") {
					found = append(found, tb)
				}
			}
			require.Len(t, found, 2, "%s: one example table per exercise", l.file)
			lc := leastconn.New(3)
			lbReplay(t, l, found[0], "leastconn.New(3)", lc, func(args []int) int {
				require.Empty(t, args)
				return lc.Pick()
			})
			p2 := twochoices.New(4)
			lbReplay(t, l, found[1], "twochoices.New(4)", p2, func(args []int) int {
				require.Len(t, args, 2)
				return p2.Pick(args[0], args[1])
			})
		})
	}
}

func lbClean(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = clean(c)
	}
	return out
}

// The recorded example answers of the geoDNS section: what ecs.py prints
// for a name that depends on the client's subnet and for one that does
// not. There is no network here, and live addresses differ with where one
// asks; the addresses are therefore from the documentation ranges of RFC
// 5737, and the scopes are what RFC 7871 lets a server answer.
type lbECS struct {
	name   string
	subnet netip.Prefix
	answer netip.Addr
	scope  int
}

var lbECSAnswers = []lbECS{
	{"geo.example.net", netip.MustParsePrefix("68.192.0.0/24"), netip.MustParseAddr("192.0.2.10"), 24},
	{"geo.example.net", netip.MustParsePrefix("91.65.0.0/24"), netip.MustParseAddr("198.51.100.20"), 24},
	{"geo.example.net", netip.MustParsePrefix("133.11.0.0/24"), netip.MustParseAddr("203.0.113.30"), 16},
	{"geo.example.net", netip.MustParsePrefix("177.54.0.0/24"), netip.MustParseAddr("192.0.2.40"), 24},
	{"www.example.com", netip.MustParsePrefix("68.192.0.0/24"), netip.MustParseAddr("198.51.100.1"), 0},
	{"www.example.com", netip.MustParsePrefix("91.65.0.0/24"), netip.MustParseAddr("198.51.100.1"), 0},
	{"www.example.com", netip.MustParsePrefix("133.11.0.0/24"), netip.MustParseAddr("198.51.100.1"), 0},
	{"www.example.com", netip.MustParsePrefix("177.54.0.0/24"), netip.MustParseAddr("198.51.100.1"), 0},
}

// lbECSOption encodes the EDNS Client Subnet option of an answer as RFC
// 7871 section 6 lays it out: OPTION-CODE 8, OPTION-LENGTH, FAMILY (1 for
// IPv4), SOURCE PREFIX-LENGTH, SCOPE PREFIX-LENGTH, and as many bytes of
// the address as the source prefix covers.
func lbECSOption(subnet netip.Prefix, scope int) []byte {
	addr := subnet.Addr().As4()
	n := (subnet.Bits() + 7) / 8
	b := binary.BigEndian.AppendUint16(nil, 8)
	b = binary.BigEndian.AppendUint16(b, uint16(4+n))
	b = binary.BigEndian.AppendUint16(b, 1)
	b = append(b, byte(subnet.Bits()), byte(scope))
	return append(b, addr[:n]...)
}

var lbByteRE = regexp.MustCompile(`0x([0-9a-f]{2})`)

// TestLastverteilungDNS checks the geoDNS table against the example
// answers, the option bytes the lesson shows against the encoding of the
// Frankfurt answer, and the rotation example.
func TestLastverteilungDNS(t *testing.T) {
	headers := map[string][]string{
		"de": {"Name", "Client-Subnetz (ECS)", "Antwort", "SCOPE PREFIX-LENGTH"},
		"en": {"Name", "Client subnet (ECS)", "Answer", "SCOPE PREFIX-LENGTH"},
	}
	rotation := map[string][]string{
		"de": {"Abfrage", "Reihenfolge in der Antwort", "erste Adresse"},
		"en": {"Query", "Order in the answer", "First address"},
	}
	for _, lg := range lbLangs {
		t.Run(lg.code, func(t *testing.T) {
			l := lbLoad(t, lg.code)
			tb := l.find(t, headers[lg.code])
			require.Len(t, tb.rows, len(lbECSAnswers), "%s:%d: one row per example answer", l.file, tb.line)
			for i, r := range tb.rows {
				a := lbECSAnswers[i]
				require.Equal(t, a.name, clean(r.cells[0]), r.where(l, "name"))
				require.Equal(t, a.subnet.String(), firstWord(r.cells[1]), r.where(l, "client subnet"))
				require.Equal(t, a.answer.String(), clean(r.cells[2]), r.where(l, "answer"))
				require.Equal(t, fmt.Sprintf("/%d", a.scope), firstWord(r.cells[3]), r.where(l, "scope"))
			}

			// The Go block with the option's bytes is the Frankfurt answer
			// of geo.example.net.
			start := strings.Index(l.text, "ecs := []byte{")
			require.GreaterOrEqual(t, start, 0, "%s: the ECS option's bytes", l.file)
			end := strings.Index(l.text[start:], "}")
			var got []byte
			for _, m := range lbByteRE.FindAllStringSubmatch(l.text[start:start+end], -1) {
				v, _ := strconv.ParseUint(m[1], 16, 8)
				got = append(got, byte(v))
			}
			require.Equal(t, lbECSOption(lbECSAnswers[1].subnet, lbECSAnswers[1].scope), got, "%s: the bytes of the ECS option", l.file)

			// Rotation: a server with four addresses that moves the first
			// to the end after every answer.
			rt := l.find(t, rotation[lg.code])
			addrs := []string{"192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"}
			require.Len(t, rt.rows, 5, "%s:%d: five queries", l.file, rt.line)
			for i, r := range rt.rows {
				order := append(append([]string(nil), addrs[i%4:]...), addrs[:i%4]...)
				require.Equal(t, strconv.Itoa(i+1), clean(r.cells[0]), r.where(l, "query number"))
				require.Equal(t, strings.Join(order, ", "), clean(r.cells[1]), r.where(l, "order of the answer"))
				require.Equal(t, order[0], clean(r.cells[2]), r.where(l, "first address"))
			}
		})
	}
}

// TestLastverteilungRules checks that the simulator's least-connections
// and two-choices rules, which the shared-snapshot and sticky-session
// figures use, pick exactly as the reference solutions do.
func TestLastverteilungRules(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 0))
		n := 1 + r.IntN(8)
		lc, p2 := leastconn.New(n), twochoices.New(n)
		simLC, simP2 := sim.NewCounting(n, sim.LeastConn()), sim.NewCounting(n, sim.TwoChoices)
		for step := range 60 {
			if r.IntN(3) == 0 {
				for i, a := range lc.Active() {
					if a > 0 {
						lc.Done(i)
						simLC.Done(i)
						break
					}
				}
				for i, a := range p2.Active() {
					if a > 0 {
						p2.Done(i)
						simP2.Done(i)
						break
					}
				}
				continue
			}
			require.Equal(t, lc.Pick(), simLC.Pick(nil), "seed %d, step %d: least connections", seed, step)
			// The simulator's rule draws its two backends itself; the
			// reference gets the same two from an identical source.
			a, b := sim.TwoDistinct(rand.New(rand.NewPCG(seed, uint64(step)+1)), n)
			st := rand.NewPCG(seed, uint64(step)+1)
			require.Equal(t, p2.Pick(a, b), simP2.Pick(rand.New(st)), "seed %d, step %d: two choices", seed, step)
		}
	}
}

// lbDecimals returns the numbers with a decimal separator in text, as
// language lg writes them (IP addresses and the like are skipped).
func lbDecimals(lg lbLang, text string) []string {
	var out []string
	one := regexp.MustCompile(`^\d+` + regexp.QuoteMeta(lg.decimal) + `\d+$`)
	for _, tok := range regexp.MustCompile(`[\d.,]+`).FindAllString(text, -1) {
		if tok = strings.TrimRight(tok, ".,"); one.MatchString(tok) {
			out = append(out, tok)
		}
	}
	return out
}

// lbQuiz returns the quiz lbquiz as the course loader reads it.
func lbQuiz(t *testing.T) *course.Exercise {
	t.Helper()
	c, err := course.Load(os.DirFS(".."))
	require.NoError(t, err)
	ex, ok := c.Exercise("lbquiz")
	require.True(t, ok)
	return ex
}

// TestLastverteilungProseFigures checks that every decimal figure in the
// lesson's prose and in the quiz's texts is one of its tables' figures (or
// one of the two parameters the prose derives: the arrival rate at 80 %
// load and least time's weight), so that no number escapes the
// recomputation.
func TestLastverteilungProseFigures(t *testing.T) {
	quiz := lbQuiz(t)
	for _, lg := range lbLangs {
		t.Run(lg.code, func(t *testing.T) {
			l := lbLoad(t, lg.code)
			known := map[string]bool{lg.num(0.8*lbBackends, 1): true, lg.param(lbAlpha): true}
			for _, tb := range l.tables {
				for _, r := range tb.rows {
					for _, c := range r.cells {
						for _, d := range lbDecimals(lg, c) {
							known[d] = true
						}
					}
				}
			}
			for _, p := range l.prose {
				n, text, _ := strings.Cut(p, "\x00")
				if strings.HasPrefix(text, "|") {
					continue // a table row
				}
				for _, d := range lbDecimals(lg, text) {
					require.True(t, known[d], "%s:%s: %s is in no table of the lesson", l.file, n, d)
				}
			}
			texts := []string{quiz.Summary[lg.code]}
			for _, c := range quiz.Quiz {
				for _, o := range c.Options {
					texts = append(texts, o[lg.code])
				}
			}
			for _, text := range texts {
				for _, d := range lbDecimals(lg, text) {
					require.True(t, known[d], "exercises/lbquiz (%s): %s is in no table of the lesson", lg.code, d)
				}
			}
		})
	}
}

// TestLastverteilungStructure checks the form of both files and their
// parity: the same sections, code blocks and table shapes, no raw HTML,
// the herd diagram, and no quiz answer given away.
func TestLastverteilungStructure(t *testing.T) {
	de, en := lbLoad(t, "de"), lbLoad(t, "en")
	for _, l := range []*lesson{de, en} {
		require.True(t, strings.HasPrefix(l.text, "# "), "%s: must start with a level-1 heading", l.file)
		require.Regexp(t, "(?m)^```mermaid\\s*\\n\\s*stateDiagram-v2\\b", l.text, "%s: needs a ```mermaid block with stateDiagram-v2", l.file)
		for _, f := range l.fences {
			require.Contains(t, []string{"go", "mermaid"}, f, "%s: code blocks must be go or mermaid, found %q", l.file, f)
		}
		for _, p := range l.prose {
			n, text, _ := strings.Cut(p, "\x00")
			require.False(t, htmlTag.MatchString(inlineCode.ReplaceAllString(text, "")), "%s:%s: raw HTML is not allowed: %s", l.file, n, text)
		}
		for _, tb := range l.tables {
			for _, r := range tb.rows {
				require.Len(t, r.cells, len(tb.header), r.where(l, "row has a different number of cells than its header"))
			}
		}
		var quoted []string
		for _, c := range lbQuiz(t).Quiz {
			quoted = append(quoted, strconv.Quote(c.Answer))
		}
		require.NotContains(t, l.text, "{"+strings.Join(quoted, ", ")+"}", "%s: reveals the quiz answer", l.file)
		for _, id := range []string{"leastconn", "twochoices", "lbquiz"} {
			require.Contains(t, l.text, "kurs check "+id, "%s: says how to check %s", l.file, id)
		}
	}
	require.Equal(t, len(de.headings), len(en.headings), "%s and %s: different number of headings", de.file, en.file)
	for i := range de.headings {
		require.Equal(t, strings.Fields(de.headings[i])[0], strings.Fields(en.headings[i])[0], "%s and %s: heading %d has a different level (%q vs %q)", de.file, en.file, i+1, de.headings[i], en.headings[i])
	}
	require.Equal(t, de.fences, en.fences, "%s and %s: different code blocks", de.file, en.file)
	require.Equal(t, len(de.tables), len(en.tables), "%s and %s: different number of tables", de.file, en.file)
	for i := range de.tables {
		dt, et := de.tables[i], en.tables[i]
		require.Equal(t, len(dt.header), len(et.header), "table %d (%s:%d, %s:%d): different number of columns", i+1, de.file, dt.line, en.file, et.line)
		require.Equal(t, len(dt.rows), len(et.rows), "table %d (%s:%d, %s:%d): different number of rows", i+1, de.file, dt.line, en.file, et.line)
	}
	// Both languages quote the same figures: every number in a German
	// table cell, with its comma made a point, is in the same English cell.
	num := regexp.MustCompile(`\d+(?:[.,]\d+)*`)
	thousands := regexp.MustCompile(`^\d{1,3}(\.\d{3})+$`)
	for i := range de.tables {
		for j := range de.tables[i].rows {
			for c := range de.tables[i].rows[j].cells {
				dc, ec := de.tables[i].rows[j].cells[c], en.tables[i].rows[j].cells[c]
				for _, m := range num.FindAllString(dc, -1) {
					switch {
					case thousands.MatchString(m):
						m = strings.ReplaceAll(m, ".", ",")
					case strings.Contains(m, ","):
						m = strings.ReplaceAll(m, ",", ".")
					}
					require.Contains(t, ec, m, "table %d row %d column %d: %s has %q, %s has %q", i+1, j+1, c+1, de.file, dc, en.file, ec)
				}
			}
		}
	}
}
