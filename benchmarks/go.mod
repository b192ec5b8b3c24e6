module github.com/stealkit/stealkit/benchmarks

go 1.26.0

require (
	github.com/alitto/pond/v2 v2.7.1
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/sourcegraph/conc v0.3.0
	github.com/stealkit/stealkit v0.0.0-00010101000000-000000000000
	golang.org/x/sync v0.24.0
)

require (
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
)

replace github.com/stealkit/stealkit => ../
