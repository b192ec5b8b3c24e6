package plinq_test

import (
	"fmt"
	"log"

	"github.com/stealkit/stealkit/plinq"
)

// A report as a first query is often written: filter, group, sort the
// groups, and summarise each, with the run's error checked once at the end.
func Example_report() {
	adults := plinq.From(people).Where(func(p Person) bool { return p.Age >= 18 })
	byCity := plinq.GroupBy(adults, func(p Person) string { return p.City })
	sorted := plinq.OrderByKey(byCity, func(g plinq.Group[string, Person]) string { return g.Key })
	lines, err := plinq.Select(sorted, func(g plinq.Group[string, Person]) string {
		oldest := g.Items[0]
		for _, p := range g.Items[1:] {
			if p.Age > oldest.Age {
				oldest = p
			}
		}
		return fmt.Sprintf("%s: oldest of %d is %s", g.Key, len(g.Items), oldest.Name)
	}).ToSlice()
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// Berlin: oldest of 2 is Emil
	// London: oldest of 1 is Ada
	// Paris: oldest of 1 is Chen
}
