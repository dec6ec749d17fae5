package explain

// AroundSteps is how many steps before the departure a trace shows when it
// is cut (see Around).
const AroundSteps = 8

// minHidden is the fewest steps Around leaves out.
const minHidden = 5

// Around returns the rows of the trace a reader needs: the constructor,
// the last AroundSteps steps before the departure and everything from
// there on. The steps between are left out, and hidden counts them. A
// trace that cutting would shorten by fewer than minHidden steps fits a
// screen as it is and is returned whole, hidden 0. A long one, such as
// the 64 doublings of a backoff before the one that overflows, so shows
// where it went wrong on one screen; the front ends offer the whole trace
// on request.
func (tr *Trace) Around() (rows []Row, hidden int) {
	fail := -1
	for i := range tr.Rows {
		if tr.Rows[i].Kind == RowFailing {
			fail = i
			break
		}
	}
	first := 0
	if len(tr.Rows) > 0 && tr.Rows[0].Kind == RowNew {
		first = 1
	}
	cut := fail - AroundSteps // the rows from first up to cut are left out
	if fail < 0 || cut-first <= 0 {
		return tr.Rows, 0
	}
	for _, r := range tr.Rows[first:cut] {
		if r.Kind == RowElided {
			hidden += r.Elided
		} else {
			hidden++
		}
	}
	if hidden < minHidden {
		return tr.Rows, 0
	}
	rows = append(rows, tr.Rows[:first]...)
	return append(rows, tr.Rows[cut:]...), hidden
}
