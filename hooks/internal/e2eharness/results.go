package e2eharness

import "sync"

// Results keeps what the model was told about each scripted call, by the
// call's id; R is the suite's record of a result. The zero value is ready.
type Results[R any] struct {
	mu   sync.Mutex
	byID map[string]R
}

// Set records call id's result.
func (r *Results[R]) Set(id string, v R) {
	r.Update(id, func(R) R { return v })
}

// Update replaces call id's result (the zero R when there is none) with
// what f makes of it.
func (r *Results[R]) Update(id string, f func(R) R) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[string]R{}
	}
	r.byID[id] = f(r.byID[id])
}

// InOrder returns the results of calls 0 to n-1, whose ids id gives; ok
// is false for a call whose result never came back.
func (r *Results[R]) InOrder(n int, id func(int) string) (res []R, ok []bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range n {
		v, found := r.byID[id(i)]
		res = append(res, v)
		ok = append(ok, found)
	}
	return res, ok
}
