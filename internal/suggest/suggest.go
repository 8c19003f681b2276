// Package suggest finds the name a user probably meant when they misspelt one.
package suggest

import "strings"

// Nearest is the known name closest to k by edit distance, when it is close enough to be
// a typo (at most 2 edits, or a case difference); "" otherwise. It serves the "did you mean"
// of a misspelt settings key or theme name.
func Nearest(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if strings.EqualFold(c, k) {
			return c
		}
		if d := editDistance(k, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
