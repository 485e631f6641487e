// Package strsort sorts strings in place, in increasing order as < orders
// them (byte-wise), as slices.Sort does: equal strings are identical, so
// every correct sort leaves the same slice. It exists for the light
// WebAssembly engine: slices.Sort's pattern-defeating quicksort,
// instantiated for string, costs about 4 KB of its gzip, this heapsort a
// tenth of that. It is a leaf: it imports nothing.
package strsort

// Strings sorts s in increasing order: a heapsort, O(n log n) however
// the input is ordered (map keys from a request are sorted by it).
func Strings(s []string) {
	n := len(s)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(s, i, n)
	}
	for end := n - 1; end > 0; end-- {
		s[0], s[end] = s[end], s[0]
		siftDown(s, 0, end)
	}
}

// siftDown restores the max-heap property of s[:n] below root.
func siftDown(s []string, root, n int) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && s[child] < s[child+1] {
			child++
		}
		if s[root] >= s[child] {
			return
		}
		s[root], s[child] = s[child], s[root]
		root = child
	}
}
