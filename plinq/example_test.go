package plinq_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"strconv"
	"strings"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

type Person struct {
	Name string
	Age  int
	City string
}

var people = []Person{
	{"Ada", 36, "London"}, {"Brendan", 17, "Paris"}, {"Chen", 24, "Paris"},
	{"Dana", 15, "London"}, {"Emil", 52, "Berlin"}, {"Fay", 24, "Berlin"},
}

func Example() {
	adults := plinq.From(people).Where(func(p Person) bool { return p.Age >= 18 })
	names, err := plinq.Select(adults, func(p Person) string { return p.Name }).ToSlice()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(names)
	fmt.Println(plinq.Sum(plinq.Select(adults, func(p Person) int { return p.Age })))
	// Output:
	// [Ada Chen Emil Fay]
	// 136 <nil>
}

func ExampleFrom() {
	fmt.Println(plinq.From([]int{3, 1, 2}).ToSlice())
	// Output: [3 1 2] <nil>
}

func ExampleRange() {
	squares := plinq.Select(plinq.Range(1, 6), func(i int) int { return i * i })
	fmt.Println(squares.ToSlice())
	// Output: [1 4 9 16 25] <nil>
}

func ExampleFromSeq() {
	words := plinq.FromSeq(strings.FieldsSeq("the quick brown fox"))
	fmt.Println(plinq.Select(words, strings.ToUpper).ToSlice())
	// Output: [THE QUICK BROWN FOX] <nil>
}

func ExampleQuery_Where() {
	even := plinq.Range(0, 10).Where(func(i int) bool { return i%2 == 0 })
	fmt.Println(even.ToSlice())
	fmt.Println(even.Count())
	// Output:
	// [0 2 4 6 8] <nil>
	// 5 <nil>
}

func ExampleSelect() {
	lengths := plinq.Select(plinq.From([]string{"a", "bcd", "ef"}), func(s string) int { return len(s) })
	fmt.Println(lengths.ToSlice())
	// Output: [1 3 2] <nil>
}

func ExampleSelectErr() {
	// The error is that of the first failing element in query order, as in a
	// sequential loop, whichever worker met it first.
	nums := plinq.SelectErr(plinq.From([]string{"1", "2", "x", "4", "y"}), strconv.Atoi)
	fmt.Println(nums.ToSlice())
	fmt.Println(plinq.SelectErr(plinq.From([]string{"1", "2"}), strconv.Atoi).ToSlice())
	// Output:
	// [] strconv.Atoi: parsing "x": invalid syntax
	// [1 2] <nil>
}

func ExampleSelectIndexed() {
	q := plinq.SelectIndexed(plinq.From([]string{"a", "b", "c"}), func(i int, s string) string {
		return fmt.Sprint(i, "=", s)
	})
	fmt.Println(q.ToSlice())
	// Output: [0=a 1=b 2=c] <nil>
}

func ExampleSelectMany() {
	q := plinq.SelectMany(plinq.From([]string{"ab", "", "cde"}), func(s string) []string { return strings.Split(s, "") })
	fmt.Println(q.ToSlice())
	// Output: [a b c d e] <nil>
}

func ExampleZip() {
	q := plinq.Zip(plinq.From([]string{"a", "b", "c"}), plinq.Range(1, 100), func(s string, i int) string {
		return strings.Repeat(s, i)
	})
	fmt.Println(q.ToSlice())
	// Output: [a bb ccc] <nil>
}

func ExampleConcat() {
	q := plinq.Concat(plinq.Range(0, 3), plinq.Range(10, 20).Where(func(i int) bool { return i%4 == 0 }))
	fmt.Println(q.ToSlice())
	// Output: [0 1 2 12 16] <nil>
}

func ExampleChunk() {
	batches, err := plinq.Chunk(plinq.Range(0, 7), 3).ToSlice()
	fmt.Println(batches, err)
	// Output: [[0 1 2] [3 4 5] [6]] <nil>
}

func ExampleScan() {
	add := func(a, b int) int { return a + b }
	fmt.Println(plinq.Scan(plinq.From([]int{3, 1, 4, 1, 5, 9, 2, 6}), 0, add).ToSlice())
	// Output: [3 4 8 9 14 23 25 31] <nil>
}

func ExampleScanExclusive() {
	// Where each record starts when records are laid end to end.
	lengths := plinq.From([]int{3, 1, 4, 1, 5})
	fmt.Println(plinq.ScanExclusive(lengths, 0, func(a, b int) int { return a + b }).ToSlice())
	// Output: [0 3 4 8 9] <nil>
}

func ExampleQuery_OrderBy() {
	byAge := plinq.From(people).OrderBy(func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
	names, err := plinq.Select(byAge, func(p Person) string { return p.Name }).ToSlice()
	fmt.Println(names, err)
	// Output: [Dana Brendan Chen Fay Ada Emil] <nil>
}

func ExampleOrderByKey() {
	// Sorted by city, then by age from the oldest; a stable sort.
	q := plinq.ThenByKeyDescending(plinq.OrderByKey(plinq.From(people), func(p Person) string { return p.City }),
		func(p Person) int { return p.Age })
	fmt.Println(plinq.Select(q, func(p Person) string { return p.City + ":" + p.Name }).ToSlice())
	// Output: [Berlin:Emil Berlin:Fay London:Ada London:Dana Paris:Chen Paris:Brendan] <nil>
}

func ExampleQuery_Take() {
	fmt.Println(plinq.Range(0, 1_000_000).Where(func(i int) bool { return i%7 == 3 }).Take(4).ToSlice())
	// Output: [3 10 17 24] <nil>
}

func ExampleQuery_TakeWhile() {
	q := plinq.From([]int{1, 3, 5, 6, 7, 9})
	odd := func(i int) bool { return i%2 == 1 }
	fmt.Println(q.TakeWhile(odd).ToSlice())
	fmt.Println(q.SkipWhile(odd).ToSlice())
	// Output:
	// [1 3 5] <nil>
	// [6 7 9] <nil>
}

func ExampleQuery_Reverse() {
	fmt.Println(plinq.Range(0, 5).Reverse().Skip(1).ToSlice())
	// Output: [3 2 1 0] <nil>
}

func ExampleGroupBy() {
	groups, err := plinq.GroupBy(plinq.From(people), func(p Person) string { return p.City }).ToSlice()
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range groups {
		fmt.Println(g.Key, len(g.Items), g.Items[0].Name)
	}
	// Output:
	// London 2 Ada
	// Paris 2 Brendan
	// Berlin 2 Emil
}

func ExampleCountBy() {
	counts, err := plinq.CountBy(plinq.Range(0, 10), func(i int) bool { return i%3 == 0 }).ToSlice()
	fmt.Println(counts, err) // in order of first appearance: 0 is a multiple of 3
	// Output: [{true 4} {false 6}] <nil>
}

func ExampleCountBy_top() {
	// The two most frequent words, the first met first among equal counts:
	// the pairs come in order of first appearance, and OrderByDescending is
	// stable.
	words := strings.Fields("to be or not to be that is the question to")
	top, err := plinq.CountBy(plinq.From(words), func(w string) string { return w }).
		OrderByDescending(func(a, b plinq.KeyValue[string, int]) int { return cmp.Compare(a.Value, b.Value) }).
		Take(2).ToSlice()
	fmt.Println(top, err)
	// Output: [{to 3} {be 2}] <nil>
}

func ExampleCountBy_toMap() {
	// A map of counts, for lookups: ToMap over the pairs, or a range over
	// their Values.
	counts := plinq.CountBy(plinq.From(people), func(p Person) string { return p.City })
	byCity, err := plinq.ToMap(counts, func(kv plinq.KeyValue[string, int]) string { return kv.Key },
		func(kv plinq.KeyValue[string, int]) int { return kv.Value })
	fmt.Println(byCity["Paris"], byCity["Rome"], err)
	pairs, errOf := counts.Values()
	m := map[string]int{}
	for kv := range pairs {
		m[kv.Key] = kv.Value
	}
	fmt.Println(m, errOf())
	// Output:
	// 2 0 <nil>
	// map[Berlin:2 London:2 Paris:2] <nil>
}

func ExampleAggregateBy() {
	// Total age per city, in one pass: no group is collected.
	type total struct{ people, years int }
	byCity, err := plinq.AggregateBy(plinq.From(people), func(p Person) string { return p.City }, total{},
		func(t total, p Person) total { return total{t.people + 1, t.years + p.Age} },
		func(a, b total) total { return total{a.people + b.people, a.years + b.years} }).ToSlice()
	if err != nil {
		log.Fatal(err)
	}
	for _, kv := range byCity { // in order of first appearance
		fmt.Println(kv.Key, kv.Value.people, kv.Value.years)
	}
	// Output:
	// London 2 51
	// Paris 2 41
	// Berlin 2 76
}

func ExampleToMap() {
	ages, err := plinq.ToMap(plinq.From(people), func(p Person) string { return p.Name }, func(p Person) int { return p.Age })
	fmt.Println(ages["Chen"], len(ages), err)
	// Output: 24 6 <nil>
}

func ExampleDistinct() {
	fmt.Println(plinq.Distinct(plinq.From([]int{3, 1, 3, 2, 1})).ToSlice())
	// Output: [3 1 2] <nil>
}

func ExampleUnion() {
	a, b := plinq.From([]int{1, 2, 2, 3}), plinq.From([]int{3, 4, 1, 5})
	fmt.Println(plinq.Union(a, b).ToSlice())
	fmt.Println(plinq.Intersect(a, b).ToSlice())
	fmt.Println(plinq.Except(a, b).ToSlice())
	// Output:
	// [1 2 3 4 5] <nil>
	// [1 3] <nil>
	// [2] <nil>
}

func ExampleUnion_contexts() {
	// A binary operator's result stops when either input's context is done.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, b := plinq.From([]int{1, 2}), plinq.From([]int{3}).WithContext(ctx)
	fmt.Println(plinq.Union(a, b).Count())
	fmt.Println(plinq.Union(b, a).Count())
	// Output:
	// 0 context canceled
	// 0 context canceled
}

func ExampleJoin() {
	type order struct {
		Who  string
		Item string
	}
	orders := []order{{"Chen", "tea"}, {"Ada", "ink"}, {"Chen", "cake"}}
	q := plinq.Join(plinq.From(people), plinq.From(orders),
		func(p Person) string { return p.Name }, func(o order) string { return o.Who },
		func(p Person, o order) string { return p.Name + " in " + p.City + " ordered " + o.Item })
	lines, err := q.ToSlice()
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range lines {
		fmt.Println(s)
	}
	// Output:
	// Ada in London ordered ink
	// Chen in Paris ordered tea
	// Chen in Paris ordered cake
}

func ExampleSum() {
	fmt.Println(plinq.Sum(plinq.From([]float64{0.5, 1.25, 2})))
	fmt.Println(plinq.Average(plinq.Range(1, 5)))
	// Output:
	// 3.75 <nil>
	// 2.5 <nil>
}

func ExampleMin() {
	q := plinq.From([]int{4, -2, 9})
	fmt.Println(plinq.Min(q))
	fmt.Println(plinq.Max(q))
	// Output:
	// -2 <nil>
	// 9 <nil>
}

func ExampleMinBy() {
	age := func(p Person) int { return p.Age }
	youngest, _ := plinq.MinBy(plinq.From(people), age)
	oldest, _ := plinq.MaxBy(plinq.From(people), age)
	fmt.Println(youngest.Name, oldest.Name)
	// Output: Dana Emil
}

func ExampleAggregate() {
	// Concatenation is associative but not commutative: the result is in order.
	s, err := plinq.Aggregate(plinq.Range(0, 5), "",
		func(acc string, i int) string { return acc + fmt.Sprint(i) },
		func(a, b string) string { return a + b })
	fmt.Println(s, err)
	// Output: 01234 <nil>
}

func ExampleQuery_Reduce() {
	fmt.Println(plinq.Range(1, 6).Reduce(1, func(a, b int) int { return a * b }))
	// Output: 120 <nil>
}

func ExampleQuery_Any() {
	q := plinq.From(people)
	fmt.Println(q.Any(func(p Person) bool { return p.Age < 16 }))
	fmt.Println(q.Every(func(p Person) bool { return p.Age < 50 }))
	fmt.Println(plinq.Contains(plinq.Range(0, 100), 42))
	// Output:
	// true <nil>
	// false <nil>
	// true <nil>
}

func ExampleQuery_FindAny() {
	// Any multiple of 1000 will do: which one depends on the workers' timing.
	v, ok, err := plinq.Range(1, 1_000_000).FindAny(func(i int) bool { return i%1000 == 0 })
	fmt.Println(v%1000 == 0, ok, err)
	// Output: true true <nil>
}

func ExampleQuery_First() {
	q := plinq.Range(0, 1_000_000).Where(func(i int) bool { return i > 0 && i%1000 == 0 })
	fmt.Println(q.First())
	fmt.Println(q.Last())
	fmt.Println(q.ElementAt(2))
	fmt.Println(plinq.Empty[int]().FirstOrDefault())
	// Output:
	// 1000 <nil>
	// 999000 <nil>
	// 3000 <nil>
	// 0 <nil>
}

func ExampleQuery_LastOrDefault() {
	fmt.Println(plinq.Range(0, 10).Where(func(i int) bool { return i > 20 }).LastOrDefault())
	fmt.Println(plinq.Range(0, 10).LastOrDefault())
	// Output:
	// 0 <nil>
	// 9 <nil>
}

func ExampleQuery_Single() {
	fmt.Println(plinq.From(people).Where(func(p Person) bool { return p.Age > 50 }).Single())
	// Output: {Emil 52 Berlin} <nil>
}

func ExampleQuery_ForAll() {
	tens := make([]int, 4)
	err := plinq.Range(0, 4).ForAll(func(i int) { tens[i] = i * 10 }) // each call writes its own element
	fmt.Println(tens, err)
	// Output: [0 10 20 30] <nil>
}

func ExampleQuery_ForAllErr() {
	// Check every file name; the error is the first bad name's, in order.
	names := plinq.From([]string{"a.txt", "b.txt", "c.exe", "d.txt", "e.exe"})
	err := names.ForAllErr(func(name string) error {
		if !strings.HasSuffix(name, ".txt") {
			return fmt.Errorf("%s: not a text file", name)
		}
		return nil
	})
	fmt.Println(err)
	// Output: c.exe: not a text file
}

func ExampleQuery_Values() {
	values, errf := plinq.From(people).Where(func(p Person) bool { return p.City == "Paris" }).Values()
	for p := range values {
		fmt.Println(p.Name)
	}
	if err := errf(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Brendan
	// Chen
}

func ExampleQuery_All() {
	all, errf := plinq.From([]string{"x", "y"}).All()
	for i, s := range all {
		fmt.Println(i, s)
	}
	fmt.Println(errf())
	// Output:
	// 0 x
	// 1 y
	// <nil>
}

func ExampleQuery_Unordered() {
	got, _ := plinq.Range(0, 10).Where(func(i int) bool { return i%3 == 0 }).Unordered().ToSlice()
	slices.Sort(got) // any order; the same elements
	fmt.Println(got)
	// Output: [0 3 6 9]
}

func ExampleQuery_With() {
	q := plinq.Range(0, 100).With(pfor.WithWorkers(4), pfor.WithGrain(10))
	fmt.Println(plinq.Sum(q))
	// Output: 4950 <nil>
}

func ExampleQuery_WithContext() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := plinq.Range(0, 1000).WithContext(ctx).ToSlice()
	fmt.Println(len(s), err, errors.Is(err, context.Canceled))
	// Output: 0 context canceled true
}
