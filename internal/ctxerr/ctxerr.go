// Package ctxerr makes the error that pfor's and plinq's calls return when
// their context is done.
package ctxerr

import (
	"context"
	"fmt"
)

// Of returns nil while ctx is not done, then ctx's error with its cause:
// ctx.Err() itself when the cause is that error (a plain cancel, a
// deadline without a cause), else an error that wraps both, so that
// errors.Is finds context.Canceled or context.DeadlineExceeded and the
// cause given to context.WithCancelCause, WithDeadlineCause or
// WithTimeoutCause. Its message is "context canceled: " and the cause's.
//
// Returning the cause alone (context.Cause(ctx)) was the alternative; but
// then errors.Is(err, context.Canceled) would fail for a cause that does not
// wrap it, and code that tests for cancellation that way would take a
// canceled call for a failed one.
func Of(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	if cause := context.Cause(ctx); cause != nil && cause != err {
		return fmt.Errorf("%w: %w", err, cause)
	}
	return err
}
