package sched

// ring is a double-ended queue of request ids with a fixed capacity (the
// number of requests, so it never overflows).
type ring struct {
	buf        []int32
	head, size int
}

func newRing(capacity int) ring { return ring{buf: make([]int32, max(capacity, 1))} }

func (q *ring) len() int { return q.size }

func (q *ring) front() int32 { return q.buf[q.head] }

func (q *ring) pushBack(v int32) {
	q.buf[(q.head+q.size)%len(q.buf)] = v
	q.size++
}

func (q *ring) pushFront(v int32) {
	q.head = (q.head - 1 + len(q.buf)) % len(q.buf)
	q.buf[q.head] = v
	q.size++
}

func (q *ring) popFront() int32 {
	v := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return v
}

func (q *ring) ids() []int {
	out := make([]int, q.size)
	for i := range out {
		out[i] = int(q.buf[(q.head+i)%len(q.buf)])
	}
	return out
}
