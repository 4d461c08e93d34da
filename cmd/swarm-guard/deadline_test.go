package main

import (
	"os"
	"time"
)

// envTestDeadline, set by the scripts' Setup (scriptParams), lengthens the
// decision deadline of hook and check in the test binary. The one second
// of the product is a bound on a healthy machine: a test machine shared by
// many jobs (load 20 on two cores) sometimes needs longer to start the
// secret scanner, and a script asserting a decision then saw the
// deadline's denial ("could not decide within 1s") instead. A script that
// tests the deadline itself unsets the variable (env SWARM_GUARD_TEST_DEADLINE=).
const envTestDeadline = "SWARM_GUARD_TEST_DEADLINE"

func init() {
	if d, err := time.ParseDuration(os.Getenv(envTestDeadline)); err == nil && d > 0 {
		hookDeadline = d
	}
}
