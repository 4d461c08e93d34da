package committed

import (
	"fmt"
	"io/fs"
)

// errMissing is what the engine's ReadFile answers in a committed file's
// context: a file that a command runs is judged where it is committed.
var errMissing = fmt.Errorf("judged on its own: %w", fs.ErrNotExist)
