package ctxerr_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stealkit/stealkit/internal/ctxerr"
)

var errCause = errors.New("shutting down")

// TestOf: the error of a done context is ctx.Err() itself when there is no
// other cause, and wraps both ctx.Err() and the cause when there is one.
func TestOf(t *testing.T) {
	if err := ctxerr.Of(context.Background()); err != nil {
		t.Errorf("Of(Background()) = %v; want nil", err)
	}
	plain, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ctxerr.Of(plain); err != context.Canceled {
		t.Errorf("Of(a canceled context) = %v; want context.Canceled itself", err)
	}
	caused, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(errCause)
	timed, stop := context.WithTimeoutCause(context.Background(), time.Nanosecond, errCause)
	defer stop()
	<-timed.Done()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want error
		msg  string
	}{
		{"WithCancelCause", caused, context.Canceled, "context canceled: shutting down"},
		{"WithTimeoutCause", timed, context.DeadlineExceeded, "context deadline exceeded: shutting down"},
	} {
		err := ctxerr.Of(tc.ctx)
		if !errors.Is(err, tc.want) || !errors.Is(err, errCause) {
			t.Errorf("%s: Of = %v; want an error that is both %v and the cause", tc.name, err, tc.want)
		}
		if err != nil && err.Error() != tc.msg {
			t.Errorf("%s: Of(...).Error() = %q; want %q", tc.name, err, tc.msg)
		}
	}
}
