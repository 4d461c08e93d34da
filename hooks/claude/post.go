package claude

// postToolUse handles PostToolUse: the tool already ran, so the guard can
// only tell the agent what to repair. Without a scanner it has no say.
func postToolUse(in *Input, rt Runtime) Response {
	if rt.PostToolUse == nil || in.Cwd == "" {
		return Response{Exit: ExitNoDecision}
	}
	s := newSession(in, rt)
	if s.polErr != nil {
		return Response{Exit: ExitNoDecision}
	}
	return rt.PostToolUse(in, s.ctx, s.pol)
}
