module github.com/stealkit/stealkit

go 1.26
