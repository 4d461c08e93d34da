package effect

// Effect is one thing an invocation does. The concrete types are the
// families' values; the unexported method keeps the set closed, so a rule's
// type switch sees every kind there is.
type Effect interface{ isEffect() }
