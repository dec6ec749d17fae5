package termdoc

import (
	"regexp"
	"strings"
	"sync"
)

// Symbols for mermaid's [*], as UML draws them.
const (
	startState = "●"
	endState   = "◉"
)

// transition is one arrow of a diagram.
type transition struct{ from, to, label string }

var (
	// flowEdge matches one edge of a flowchart: A --> B, A -->|label| B,
	// A -- label --> B, A ==> B and A -.-> B.
	flowEdge = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?)\s*(?:--\s+(.+?)\s+-->|-->\s*(?:\|(.+?)\|)?|==>\s*(?:\|(.+?)\|)?|-\.->\s*(?:\|(.+?)\|)?)\s*(.+)$`)
	})
	// flowNode matches a node with a shape, A[text], A(text), A{text},
	// A((text)), A([text]) or A>text], and captures its text.
	flowNode = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([\w-]+)\s*(?:\[\[|\[\(|\(\[|\(\(|\[|\(|\{|>)\s*"?(.*?)"?\s*(?:\]\]|\)\]|\]\)|\)\)|\]|\)|\})$`)
	})
)

// diagram renders a mermaid state diagram or flowchart as a list of its
// transitions, the columns aligned:
//
//	●       →  closed
//	closed  →  open    threshold failures in a row
//
// It returns nil for anything else, which is then shown as code. Labels
// are wrapped to fit width.
func diagram(src string, width int) []string {
	var kind string
	var ts []transition
	names := map[string]string{} // a flowchart node's id → its text
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";"))
		if line == "" || strings.HasPrefix(line, "%%") {
			continue
		}
		if kind == "" {
			kind = strings.Fields(line)[0]
			continue
		}
		switch kind {
		case "stateDiagram", "stateDiagram-v2":
			from, rest, ok := strings.Cut(line, "-->")
			if !ok {
				continue // a state's description or a note
			}
			to, label, _ := strings.Cut(rest, ":")
			ts = append(ts, transition{state(from, startState), state(to, endState), strings.TrimSpace(label)})
		case "flowchart", "graph":
			m := flowEdge().FindStringSubmatch(line)
			if m == nil {
				continue
			}
			label := strings.Join(m[2:6], "")
			ts = append(ts, transition{node(m[1], names), node(m[6], names), strings.TrimSpace(label)})
		default:
			return nil
		}
	}
	if len(ts) == 0 {
		return nil
	}
	// A node is often given its text once and then named by its id.
	for i, t := range ts {
		if name, ok := names[t.from]; ok {
			ts[i].from = name
		}
		if name, ok := names[t.to]; ok {
			ts[i].to = name
		}
	}
	fw, tw := 0, 0
	for _, t := range ts {
		fw, tw = max(fw, Width(t.from)), max(tw, Width(t.to))
	}
	// Labels wrap in a column of their own, or, when the page leaves them
	// too little room there, under the transition.
	indent := fw + 5 + tw + 2
	if width-indent < 20 {
		indent = fw + 5
	}
	var out []string
	for _, t := range ts {
		line := t.from + strings.Repeat(" ", fw-Width(t.from)) + "  →  " + t.to
		if t.label == "" {
			out = append(out, line)
			continue
		}
		label := wrap(t.label, width-indent)
		if indent > fw+5 {
			out = append(out, line+strings.Repeat(" ", tw-Width(t.to))+"  "+label[0])
			label = label[1:]
		} else {
			out = append(out, line)
		}
		for _, l := range label {
			out = append(out, strings.Repeat(" ", indent)+l)
		}
	}
	return out
}

// state names a state of a state diagram; [*] is the start or the end.
func state(s, star string) string {
	s = strings.TrimSpace(s)
	if s == "[*]" {
		return star
	}
	return s
}

// node returns a flowchart node's id and notes its text in names.
func node(s string, names map[string]string) string {
	s = strings.TrimSpace(s)
	if m := flowNode().FindStringSubmatch(s); m != nil {
		names[m[1]] = m[2]
		return m[1]
	}
	return s
}
