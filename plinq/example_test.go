package plinq_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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
	names := plinq.Select(adults, func(p Person) string { return p.Name }).ToSlice()
	fmt.Println(names)
	fmt.Println(plinq.Sum(plinq.Select(adults, func(p Person) int { return p.Age })))
	// Output:
	// [Ada Chen Emil Fay]
	// 136
}

func ExampleFrom() {
	fmt.Println(plinq.From([]int{3, 1, 2}).ToSlice())
	// Output: [3 1 2]
}

func ExampleRange() {
	squares := plinq.Select(plinq.Range(1, 6), func(i int) int { return i * i })
	fmt.Println(squares.ToSlice())
	// Output: [1 4 9 16 25]
}

func ExampleFromSeq() {
	words := plinq.FromSeq(strings.FieldsSeq("the quick brown fox"))
	fmt.Println(plinq.Select(words, strings.ToUpper).ToSlice())
	// Output: [THE QUICK BROWN FOX]
}

func ExampleQuery_Where() {
	even := plinq.Range(0, 10).Where(func(i int) bool { return i%2 == 0 })
	fmt.Println(even.ToSlice(), even.Count())
	// Output: [0 2 4 6 8] 5
}

func ExampleSelect() {
	lengths := plinq.Select(plinq.From([]string{"a", "bcd", "ef"}), func(s string) int { return len(s) })
	fmt.Println(lengths.ToSlice())
	// Output: [1 3 2]
}

func ExampleSelectIndexed() {
	q := plinq.SelectIndexed(plinq.From([]string{"a", "b", "c"}), func(i int, s string) string {
		return fmt.Sprint(i, "=", s)
	})
	fmt.Println(q.ToSlice())
	// Output: [0=a 1=b 2=c]
}

func ExampleSelectMany() {
	q := plinq.SelectMany(plinq.From([]string{"ab", "", "cde"}), func(s string) []string { return strings.Split(s, "") })
	fmt.Println(q.ToSlice())
	// Output: [a b c d e]
}

func ExampleZip() {
	q := plinq.Zip(plinq.From([]string{"a", "b", "c"}), plinq.Range(1, 100), func(s string, i int) string {
		return strings.Repeat(s, i)
	})
	fmt.Println(q.ToSlice())
	// Output: [a bb ccc]
}

func ExampleQuery_OrderBy() {
	byAge := plinq.From(people).OrderBy(func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
	for p := range byAge.All() {
		fmt.Print(p.Name, " ")
	}
	fmt.Println()
	// Output: Dana Brendan Chen Fay Ada Emil
}

func ExampleOrderByKey() {
	// Sorted by city, then by age from the oldest; a stable sort.
	q := plinq.ThenByKeyDescending(plinq.OrderByKey(plinq.From(people), func(p Person) string { return p.City }),
		func(p Person) int { return p.Age })
	fmt.Println(plinq.Select(q, func(p Person) string { return p.City + ":" + p.Name }).ToSlice())
	// Output: [Berlin:Emil Berlin:Fay London:Ada London:Dana Paris:Chen Paris:Brendan]
}

func ExampleQuery_Take() {
	fmt.Println(plinq.Range(0, 1_000_000).Where(func(i int) bool { return i%7 == 3 }).Take(4).ToSlice())
	// Output: [3 10 17 24]
}

func ExampleQuery_TakeWhile() {
	q := plinq.From([]int{1, 3, 5, 6, 7, 9})
	odd := func(i int) bool { return i%2 == 1 }
	fmt.Println(q.TakeWhile(odd).ToSlice(), q.SkipWhile(odd).ToSlice())
	// Output: [1 3 5] [6 7 9]
}

func ExampleQuery_Reverse() {
	fmt.Println(plinq.Range(0, 5).Reverse().Skip(1).ToSlice())
	// Output: [3 2 1 0]
}

func ExampleGroupBy() {
	for g := range plinq.GroupBy(plinq.From(people), func(p Person) string { return p.City }).All() {
		fmt.Println(g.Key, len(g.Items), g.Items[0].Name)
	}
	// Output:
	// London 2 Ada
	// Paris 2 Brendan
	// Berlin 2 Emil
}

func ExampleCountBy() {
	counts := plinq.CountBy(plinq.Range(0, 10), func(i int) bool { return i%3 == 0 })
	fmt.Println(counts[true], counts[false])
	// Output: 4 6
}

func ExampleAggregateBy() {
	// Total age per city, in one pass: no group is collected.
	type total struct{ people, years int }
	byCity := plinq.AggregateBy(plinq.From(people), func(p Person) string { return p.City }, total{},
		func(t total, p Person) total { return total{t.people + 1, t.years + p.Age} },
		func(a, b total) total { return total{a.people + b.people, a.years + b.years} })
	for _, city := range []string{"Berlin", "London", "Paris"} {
		fmt.Println(city, byCity[city].people, byCity[city].years)
	}
	// Output:
	// Berlin 2 76
	// London 2 51
	// Paris 2 41
}

func ExampleToMap() {
	ages := plinq.ToMap(plinq.From(people), func(p Person) string { return p.Name }, func(p Person) int { return p.Age })
	fmt.Println(ages["Chen"], len(ages))
	// Output: 24 6
}

func ExampleDistinct() {
	fmt.Println(plinq.Distinct(plinq.From([]int{3, 1, 3, 2, 1})).ToSlice())
	// Output: [3 1 2]
}

func ExampleUnion() {
	a, b := plinq.From([]int{1, 2, 2, 3}), plinq.From([]int{3, 4, 1, 5})
	fmt.Println(plinq.Union(a, b).ToSlice(), plinq.Intersect(a, b).ToSlice(), plinq.Except(a, b).ToSlice())
	// Output: [1 2 3 4 5] [1 3] [2]
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
	for s := range q.All() {
		fmt.Println(s)
	}
	// Output:
	// Ada in London ordered ink
	// Chen in Paris ordered tea
	// Chen in Paris ordered cake
}

func ExampleSum() {
	fmt.Println(plinq.Sum(plinq.From([]float64{0.5, 1.25, 2})), plinq.Average(plinq.Range(1, 5)))
	// Output: 3.75 2.5
}

func ExampleMin() {
	q := plinq.From([]int{4, -2, 9})
	fmt.Println(plinq.Min(q), plinq.Max(q))
	// Output: -2 9
}

func ExampleMinBy() {
	age := func(p Person) int { return p.Age }
	fmt.Println(plinq.MinBy(plinq.From(people), age).Name, plinq.MaxBy(plinq.From(people), age).Name)
	// Output: Dana Emil
}

func ExampleAggregate() {
	// Concatenation is associative but not commutative: the result is in order.
	s := plinq.Aggregate(plinq.Range(0, 5), "",
		func(acc string, i int) string { return acc + fmt.Sprint(i) },
		func(a, b string) string { return a + b })
	fmt.Println(s)
	// Output: 01234
}

func ExampleQuery_Reduce() {
	fmt.Println(plinq.Range(1, 6).Reduce(1, func(a, b int) int { return a * b }))
	// Output: 120
}

func ExampleQuery_Any() {
	q := plinq.From(people)
	fmt.Println(q.Any(func(p Person) bool { return p.Age < 16 }), q.Every(func(p Person) bool { return p.Age < 50 }),
		plinq.Contains(plinq.Range(0, 100), 42))
	// Output: true false true
}

func ExampleQuery_First() {
	q := plinq.Range(0, 1_000_000).Where(func(i int) bool { return i > 0 && i%1000 == 0 })
	fmt.Println(q.First(), q.Last(), q.ElementAt(2))
	fmt.Println(plinq.Empty[int]().FirstOrDefault())
	// Output:
	// 1000 999000 3000
	// 0
}

func ExampleQuery_ForAll() {
	tens := make([]int, 4)
	plinq.Range(0, 4).ForAll(func(i int) { tens[i] = i * 10 }) // each call writes its own element
	fmt.Println(tens)
	// Output: [0 10 20 30]
}

func ExampleQuery_All() {
	for p := range plinq.From(people).Where(func(p Person) bool { return p.City == "Paris" }).All() {
		fmt.Println(p.Name)
	}
	// Output:
	// Brendan
	// Chen
}

func ExampleQuery_Enumerate() {
	for i, s := range plinq.From([]string{"x", "y"}).Enumerate() {
		fmt.Println(i, s)
	}
	// Output:
	// 0 x
	// 1 y
}

func ExampleQuery_Unordered() {
	got := plinq.Range(0, 10).Where(func(i int) bool { return i%3 == 0 }).Unordered().ToSlice()
	slices.Sort(got) // any order; the same elements
	fmt.Println(got)
	// Output: [0 3 6 9]
}

func ExampleQuery_With() {
	q := plinq.Range(0, 100).With(pfor.WithWorkers(4), pfor.WithGrain(10))
	fmt.Println(plinq.Sum(q))
	// Output: 4950
}

func ExampleTry() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := plinq.Try(plinq.Range(0, 1000).WithContext(ctx).ToSlice)
	fmt.Println(err)
	// Output: context canceled
}
