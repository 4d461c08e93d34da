package e2eharness

import "sync"

// Told keeps what the model was told about each scripted call, by the
// call's id; R is the suite's record of a result. A stand-in embeds it,
// so that its Results lists them in call order.
type Told[R any] struct {
	n    int              // calls in the script
	id   func(int) string // the id of call i
	mu   sync.Mutex
	byID map[string]R
}

// NewTold keeps the results of n calls whose ids id gives.
func NewTold[R any](n int, id func(int) string) *Told[R] {
	return &Told[R]{n: n, id: id, byID: map[string]R{}}
}

// Set records call id's result.
func (t *Told[R]) Set(id string, v R) {
	t.Update(id, func(R) R { return v })
}

// Update replaces call id's result (the zero R when there is none) with
// what f makes of it.
func (t *Told[R]) Update(id string, f func(R) R) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byID[id] = f(t.byID[id])
}

// Results returns what the model was told for each scripted call, in
// order; ok is false for a call whose result never came back.
func (t *Told[R]) Results() (res []R, ok []bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range t.n {
		v, found := t.byID[t.id(i)]
		res = append(res, v)
		ok = append(ok, found)
	}
	return res, ok
}
