package swarm

import "testing"

var agent = Agent{ID: "w1-aaaa", HomeBranch: "agent/w1", Branch: "agent/w1", OwnBranches: []string{"agent/{id}/**", "{branch}-*"}}

// Must-deny and must-allow examples of MayWriteRef.
func TestMayWriteRef(t *testing.T) {
	for _, c := range []struct {
		ref     string
		op      RefOp
		checked string
		deny    bool
	}{
		{"refs/heads/agent/w1", RefUpdate, "", false},
		{"agent/w1", RefUpdate, "", false},
		{"refs/heads/agent/w1-fix", RefUpdate, "", false},        // {branch}-*
		{"refs/heads/agent/w1-aaaa/spike", RefUpdate, "", false}, // agent/{id}/**
		{"refs/heads/agent/w1-aaaa/spike", RefDelete, "", false},
		{"refs/tags/v1.0", RefUpdate, "", false},
		{"refs/heads/agent/other-7f3a", RefUpdate, "", true},
		{"refs/heads/agent/other-7f3a", RefDelete, "", true},
		{"refs/heads/agent/w9-beef/spike", RefUpdate, "", true},
		{"refs/heads/feature", RefUpdate, "", true},
		{"refs/tags/v1.0", RefDelete, "", true},
		{"refs/notes/commits", RefUpdate, "", true},
		{"refs/heads/agent/w1-aaaa/x", RefUpdate, "/w/other", true}, // checked out by another agent
	} {
		v := agent.MayWriteRef(c.ref, c.op, c.checked)
		if v.Denied != c.deny {
			t.Errorf("MayWriteRef(%q, %d, %q) denied=%v, want %v (%s)", c.ref, c.op, c.checked, v.Denied, c.deny, v.Reason)
		}
		if v.Denied && (v.Reason == "" || v.Alternative == "") {
			t.Errorf("MayWriteRef(%q): a denial without reason or alternative", c.ref)
		}
	}
}

func TestUnknownIDNeverWidensGlobs(t *testing.T) {
	a := Agent{HomeBranch: "agent/w1", OwnBranches: []string{"agent/{id}/**"}}
	if a.OwnsBranch("agent//x") || a.OwnsBranch("agent/x/y") {
		t.Error("an agent without id owns agent/{id}/** branches")
	}
	b := Agent{ID: "w1", HomeBranch: "fix{1}", OwnBranches: []string{"{branch}-*"}}
	if !b.OwnsBranch("fix{1}-a") || b.OwnsBranch("fix1-a") {
		t.Error("braces in a branch name are taken as a glob")
	}
}

// Must-deny and must-allow examples of OtherAgentsBranch: a branch under
// another agent's {id} prefix is that agent's, whether or not it is
// checked out anywhere.
func TestOtherAgentsBranch(t *testing.T) {
	for _, c := range []struct {
		branch, owner string
	}{
		{"agent/w9-beef/spike", "w9-beef"},
		{"refs/heads/agent/w9-beef/a/b", "w9-beef"},
		{"agent/w1-aaaa/spike", ""},        // its own
		{"agent/w1-fix", ""},               // {branch}-*: its own
		{"agent/w1", ""},                   // its home branch
		{"feature", ""},                    // nobody's prefix
		{"agent/other-7f3a", "other-7f3a"}, // ** matches nothing: that agent's own agent/{id}
	} {
		got, ok := agent.OtherAgentsBranch(c.branch)
		if ok != (c.owner != "") || got != c.owner {
			t.Errorf("OtherAgentsBranch(%q) = %q, %v; want %q", c.branch, got, ok, c.owner)
		}
	}
	unknown := Agent{HomeBranch: "main", OwnBranches: []string{"agent/{id}/**"}}
	if id, ok := unknown.OtherAgentsBranch("agent/w1-aaaa/x"); !ok || id != "w1-aaaa" {
		t.Errorf("an agent without id: OtherAgentsBranch = %q, %v; want every agent/{id}/** branch to be someone else's", id, ok)
	}
	glob := Agent{ID: "w1", OwnBranches: []string{"*/{id}/**"}}
	if id, ok := glob.OtherAgentsBranch("team/w2/x"); !ok || id != "another agent" {
		t.Errorf("a glob before {id}: OtherAgentsBranch = %q, %v", id, ok)
	}
}
