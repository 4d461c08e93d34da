// Package budget is the pure accounting behind swarm-guard's budgets: it
// reads Claude Code's stream-json output and session transcripts line by
// line and counts turns, tokens (deduplicated by message id) and cost;
// it checks those counts against limits and decides how an attempt ended;
// and it holds the data kept in the budget state files and the run records
// the report aggregates.
//
// Like the guard engine, the package does no I/O and reads no clock: lines
// come in as bytes and times as values, so everything here is
// deterministic and cheap to test. Reading files and processes is the job
// of hooks/agent, hooks/internal/state and hooks/sessionbudget.
//
// Counting rules (see the reference on the transcript format):
//   - one API response is written as several assistant lines, one per
//     content block, that share message.id and repeat the same usage, so
//     usage is counted once per id, taking the largest value seen for each
//     kind (output_tokens on intermediate lines is a placeholder);
//   - a turn is one distinct main-thread assistant message id (subagent
//     messages, with a parent_tool_use_id, add tokens but not turns);
//   - the final result line's modelUsage (all models, subagents included)
//     is authoritative and replaces the streamed estimate.
//
// Budgeted tokens are input + cache writes + output. Cache reads are
// recorded and reported but not budgeted: they re-read context already
// paid for, at a tenth of the price, and counting them would make a budget
// measure how long the context is rather than how much work was done.
package budget
