package plinq_test

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/stealkit/stealkit/plinq"
)

// Examples of the operators whose names LINQ users look for first:
// sorting by several keys, sets, the element terminals and the numeric
// aggregates. They use people from example_test.go.

func ExampleQuery_ToSlice() {
	teens, err := plinq.From(people).Where(func(p Person) bool { return p.Age < 18 }).ToSlice()
	fmt.Println(teens, err)
	// Output: [{Brendan 17 Paris} {Dana 15 London}] <nil>
}

func ExampleQuery_Count() {
	n, err := plinq.From(people).Where(func(p Person) bool { return p.City == "Paris" }).Count()
	fmt.Println(n, err)
	// Output: 2 <nil>
}

func ExampleQuery_OrderByDescending() {
	byName := func(a, b Person) int { return strings.Compare(a.Name, b.Name) }
	ps, _ := plinq.From(people).Take(3).OrderByDescending(byName).ToSlice()
	fmt.Println(ps)
	// Output: [{Chen 24 Paris} {Brendan 17 Paris} {Ada 36 London}]
}

// ThenBy breaks the ties OrderBy leaves: by city, then by name.
func ExampleQuery_ThenBy() {
	ps, _ := plinq.From(people).
		OrderBy(func(a, b Person) int { return strings.Compare(a.City, b.City) }).
		ThenBy(func(a, b Person) int { return strings.Compare(a.Name, b.Name) }).
		ToSlice()
	for _, p := range ps {
		fmt.Println(p.City, p.Name)
	}
	// Output:
	// Berlin Emil
	// Berlin Fay
	// London Ada
	// London Dana
	// Paris Brendan
	// Paris Chen
}

func ExampleQuery_ThenByDescending() {
	ps, _ := plinq.From(people).
		OrderBy(func(a, b Person) int { return strings.Compare(a.City, b.City) }).
		ThenByDescending(func(a, b Person) int { return cmp.Compare(a.Age, b.Age) }).
		ToSlice()
	for _, p := range ps {
		fmt.Println(p.City, p.Age)
	}
	// Output:
	// Berlin 52
	// Berlin 24
	// London 36
	// London 15
	// Paris 24
	// Paris 17
}

func ExampleOrderByKeyDescending() {
	ages, _ := plinq.Select(plinq.OrderByKeyDescending(plinq.From(people), func(p Person) int { return p.Age }),
		func(p Person) int { return p.Age }).ToSlice()
	fmt.Println(ages)
	// Output: [52 36 24 24 17 15]
}

// Sorting is stable: Chen and Fay, both 24, keep their source order, and
// ThenByKey orders them by the next key.
func ExampleThenByKey() {
	q := plinq.OrderByKey(plinq.From(people), func(p Person) int { return p.Age })
	q = plinq.ThenByKey(q, func(p Person) string { return p.City })
	names, _ := plinq.Select(q, func(p Person) string { return p.Name }).ToSlice()
	fmt.Println(names)
	// Output: [Dana Brendan Fay Chen Ada Emil]
}

func ExampleThenByKeyDescending() {
	q := plinq.OrderByKey(plinq.From(people), func(p Person) int { return p.Age })
	q = plinq.ThenByKeyDescending(q, func(p Person) string { return p.City })
	names, _ := plinq.Select(q, func(p Person) string { return p.Name }).ToSlice()
	fmt.Println(names)
	// Output: [Dana Brendan Chen Fay Ada Emil]
}

func ExampleQuery_Skip() {
	xs, _ := plinq.Range(0, 10).Skip(7).ToSlice()
	fmt.Println(xs)
	// Output: [7 8 9]
}

func ExampleQuery_SkipWhile() {
	xs, _ := plinq.From([]int{1, 2, 5, 1, 7}).SkipWhile(func(x int) bool { return x < 3 }).ToSlice()
	fmt.Println(xs)
	// Output: [5 1 7]
}

func ExampleQuery_Last() {
	p, err := plinq.From(people).Where(func(p Person) bool { return p.Age < 18 }).Last()
	fmt.Println(p.Name, err)
	// Output: Dana <nil>
}

func ExampleQuery_ElementAt() {
	p, err := plinq.From(people).Where(func(p Person) bool { return p.City == "Berlin" }).ElementAt(1)
	fmt.Println(p.Name, err)
	// Output: Fay <nil>
}

// FirstOrDefault is First without the panic on an empty query: it returns
// the zero value instead. Take(1) tells an empty query apart.
func ExampleQuery_FirstOrDefault() {
	inRome := plinq.From(people).Where(func(p Person) bool { return p.City == "Rome" })
	p, err := inRome.FirstOrDefault()
	fmt.Printf("%q %v\n", p.Name, err)
	s, err := inRome.Take(1).ToSlice()
	fmt.Println(len(s), err)
	// Output:
	// "" <nil>
	// 0 <nil>
}

// Every is LINQ's All quantifier; plinq's All is the iterator.
func ExampleQuery_Every() {
	named, err := plinq.From(people).Every(func(p Person) bool { return p.Name != "" })
	fmt.Println(named, err)
	// Output: true <nil>
}

func ExampleContains() {
	found, err := plinq.Contains(plinq.Select(plinq.From(people), func(p Person) string { return p.City }), "Paris")
	fmt.Println(found, err)
	// Output: true <nil>
}

func ExampleAverage() {
	mean, err := plinq.Average(plinq.Select(plinq.From(people), func(p Person) int { return p.Age }))
	fmt.Println(mean, err)
	// Output: 28 <nil>
}

func ExampleMax() {
	oldest, err := plinq.Max(plinq.Select(plinq.From(people), func(p Person) int { return p.Age }))
	fmt.Println(oldest, err)
	// Output: 52 <nil>
}

// MaxBy returns the first of the elements with the largest key.
func ExampleMaxBy() {
	p, err := plinq.MaxBy(plinq.From(people), func(p Person) string { return p.City })
	fmt.Println(p.Name, err)
	// Output: Brendan <nil>
}

// DistinctBy keeps the first element of each key, in source order.
func ExampleDistinctBy() {
	ps, _ := plinq.DistinctBy(plinq.From(people), func(p Person) string { return p.City }).ToSlice()
	for _, p := range ps {
		fmt.Println(p.City, p.Name)
	}
	// Output:
	// London Ada
	// Paris Brendan
	// Berlin Emil
}

func ExampleIntersect() {
	xs, _ := plinq.Intersect(plinq.From([]int{5, 1, 3, 1, 4}), plinq.From([]int{4, 1, 9})).ToSlice()
	fmt.Println(xs)
	// Output: [1 4]
}

func ExampleExcept() {
	xs, _ := plinq.Except(plinq.From([]int{5, 1, 3, 1, 4}), plinq.From([]int{4, 1, 9})).ToSlice()
	fmt.Println(xs)
	// Output: [5 3]
}

func ExampleRepeat() {
	xs, _ := plinq.Repeat("ab", 3).ToSlice()
	fmt.Println(xs)
	// Output: [ab ab ab]
}

// Empty is a query with no elements: the identity of Concat.
func ExampleEmpty() {
	n, _ := plinq.Empty[string]().Count()
	xs, _ := plinq.Concat(plinq.Empty[int](), plinq.Range(0, 2)).ToSlice()
	fmt.Println(n, xs)
	// Output: 0 [0 1]
}
