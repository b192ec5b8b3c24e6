// Package plinq runs chained queries over slices in parallel, on pfor's
// pool:
//
//	adults := plinq.From(people).Where(func(p Person) bool { return p.Age >= 18 })
//	names, err := plinq.Select(adults, func(p Person) string { return p.Name }).ToSlice()
//	total, err := plinq.Sum(plinq.Select(plinq.From(orders), func(o Order) float64 { return o.Amount }))
//
// # Methods and functions
//
// Go methods cannot have type parameters of their own, so the rule is:
// an operator that keeps the element type and needs nothing of it is a
// method (q.Where, q.Take, q.Skip, q.Reverse, q.OrderBy, q.Count, q.First,
// q.ToSlice, ...); one that changes the element type, combines two queries,
// or needs its elements comparable, ordered or numeric, is a package
// function taking the query first (Select, SelectErr, SelectMany, Zip,
// Concat, Chunk, GroupBy, Join, Distinct, Union, Contains, Sum, Min, MinBy,
// OrderByKey, Scan, ToMap, CountBy, Aggregate, AggregateBy, ...). Names
// follow LINQ for the operators (Where, Select, OrderBy, GroupBy) and Go for
// the iterators: Values yields the elements and All yields (index,
// element), as in package slices; LINQ's All quantifier is Every.
//
// # Running
//
// Building a query does no work. A terminal operation (ToSlice, ForAll,
// Values, All, Count, Sum, First, Any, ToMap, ...) runs it. A query is an
// immutable value: running it again runs it afresh with the same result,
// and one query may be the input of several, also run from several
// goroutines at once.
//
// Functions passed to operators are called concurrently from several
// goroutines, and must be safe for that; each operator's doc says how often
// they are called. Element-wise operators (Where, Select, SelectErr,
// SelectIndexed, SelectMany, Zip, Concat, Join's probe) run fused, in one
// pass over the input with no intermediate slices; operators that need all
// of their input (OrderBy, GroupBy, Distinct, Scan, Chunk, ...) collect it
// first, and their docs say so. CountBy and AggregateBy need all of their
// input too, but keep a value per key only: their results are queries of
// KeyValue pairs, one per key, in order of first appearance.
//
// # Order and determinism
//
// A query's results come in the order a sequential loop over the source
// would produce them, whatever the number of workers or the partitioner.
// q.Unordered() allows ToSlice, Values and All to deliver them in another
// order where that is cheaper; which elements a query yields never depends
// on it. Reductions (Sum, Average, Aggregate, Reduce, AggregateBy, Scan)
// group their combinations by the length of the input only, so a float
// result is the same bit for bit in every run. FindAny is the one operator
// whose answer may vary from run to run.
//
// Indexed queries, whose length and element positions are known without
// running them (From, Range, Repeat, and Select, SelectErr, SelectIndexed,
// Zip, Concat, Take, Skip, Reverse of those), are cheaper: ToSlice writes
// each result into its place, Count does not run them, and First, Last and
// ElementAt evaluate one element. After Where or SelectMany a query's
// positions are only known once it has run.
//
// # Early exit
//
// Any, Every, Contains and FindAny stop handing out work as soon as the
// answer is known, and running work stops within a batch of a few hundred
// elements. First, Take, TakeWhile, ElementAt and Single of a query that is
// not indexed evaluate a prefix of it that at most about doubles the one
// the answer needs: the answer is the one in query order.
//
// # Errors
//
// Every terminal operation returns an error as its last result, and its
// other results are then zero values. A run fails for two reasons:
//
//   - a context added by q.WithContext is done: no more work starts, work in
//     progress stops at its next batch, and the error is ctx.Err(), with
//     the context's cause wrapped in it if it has another (as in pfor);
//   - a function passed to SelectErr or ForAllErr returned an error: the
//     error is that of the first failing element in query order, the error
//     a sequential loop would return, whatever the workers and the timing.
//
// A run returns one error, for the run as a whole. The iterators cannot
// return an error from a range loop, so Values and All return with the
// sequence a function that reports the iteration's error after the loop,
// as bufio.Scanner.Err does. A failed run never panics out of plinq.
//
// Panics are not errors. A panic in a query's function stops the run and
// reaches the caller of the terminal operation as a *pfor.PanicError, with
// the original value and stack, once every worker has stopped, with no
// goroutine left behind. Bad arguments (nil functions, negative counts,
// Range with hi < lo, two queries with different options in one binary
// operator) panic with a message naming the operator and the value when the
// operator is called; First, Last, Single, Min, Max, MinBy, MaxBy and
// Average of an empty query, Single of one with several elements, and
// ElementAt out of range panic when run, as slices.Min does; FirstOrDefault
// and LastOrDefault are the non-panicking First and Last.
//
// # Options
//
// q.With(opts...) takes pfor's options (pfor.WithWorkers,
// pfor.WithPartitioner, pfor.WithGrain, ...), the library's one options
// style. An operator hands its input's options and contexts on to its
// result. The operators that combine two queries (Concat, Zip, Join, Union,
// Intersect, Except) merge both inputs' settings by one rule, whatever the
// order of the arguments: the run stops when the first of their contexts is
// done; the result is unordered only if both inputs are; and it has the
// options of the input that has any, which must be the same list if both
// have some (two branches of one query), or the operator panics.
package plinq
