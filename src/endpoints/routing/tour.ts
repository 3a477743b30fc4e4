/**
 * A travelling-salesman heuristic for one vehicle: nearest neighbour from the start, then 2-opt
 * (reverse a stretch) and or-opt (move a run of 1 to 3 stops) until no move helps, on any cost
 * matrix, symmetric or not. The answer is never worse than the input order: that order is
 * compared last and kept when it is as good.
 *
 * `cost[i][j]` is the cost from node i to node j; node 0 is the start, nodes 1..n the stops to
 * order, and node n+1, when `end` is true, a fixed end (a destination, or the start again for a
 * round trip). Returns the stops' order as indexes 0..n-1 (node k is stop k-1).
 * @example solveTour([[0, 5, 1], [5, 0, 2], [1, 2, 0]], false) // [1, 0]
 */
export function solveTour(cost: readonly (readonly number[])[], end: boolean): number[] {
  const n = cost.length - 1 - (end ? 1 : 0)
  const last = n + 1
  const total = (perm: readonly number[]): number => {
    let sum = 0
    let at = 0
    for (const node of perm) {
      sum += cost[at]![node]!
      at = node
    }
    return end ? sum + cost[at]![last]! : sum
  }

  // Nearest neighbour.
  const left = new Set(Array.from({ length: n }, (_, i) => i + 1))
  let perm: number[] = []
  let at = 0
  while (left.size > 0) {
    let best = -1
    for (const node of left) if (best === -1 || cost[at]![node]! < cost[at]![best]!) best = node
    perm.push(best)
    left.delete(best)
    at = best
  }

  // Each move is costed in O(1) from the order's cost (`bestCost`, always a full `total`) and
  // prefix sums of its legs forwards and backwards (a 2-opt reverses a stretch: on an asymmetric
  // matrix its legs then run the other way); only a move that helps is written out and summed.
  let bestCost = total(perm)
  const m = n + 1 + (end ? 1 : 0)
  const nodeAt = (order: readonly number[], q: number) => (q === 0 ? 0 : q <= n ? order[q - 1]! : last)
  const forward = new Float64Array(m)
  const backward = new Float64Array(m)
  const sums = () => {
    for (let q = 1; q < m; q++) {
      const [a, b] = [nodeAt(perm, q - 1), nodeAt(perm, q)]
      forward[q] = forward[q - 1]! + cost[a]![b]!
      backward[q] = backward[q - 1]! + cost[b]![a]!
    }
  }
  const accept = (order: number[], estimate: number): boolean => {
    if (!(estimate < bestCost - 1e-9)) return false
    perm = order
    bestCost = total(perm)
    sums()
    return true
  }
  sums()
  for (let improved = true, rounds = 0; improved && rounds < 50; rounds++) {
    improved = false
    // 2-opt: reverse perm[i..j] (order positions a..b: position 0 is the start).
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        const [a, b] = [i + 1, j + 1]
        const [before, first, lastIn] = [nodeAt(perm, a - 1), nodeAt(perm, a), nodeAt(perm, b)]
        let delta =
          cost[before]![lastIn]! -
          cost[before]![first]! +
          (backward[b]! - backward[a]!) -
          (forward[b]! - forward[a]!)
        if (b + 1 < m) delta += cost[first]![nodeAt(perm, b + 1)]! - cost[lastIn]![nodeAt(perm, b + 1)]!
        if (bestCost + delta < bestCost - 1e-9) {
          const order = [...perm.slice(0, i), ...perm.slice(i, j + 1).reverse(), ...perm.slice(j + 1)]
          if (accept(order, total(order))) improved = true
        }
      }
    }
    // Or-opt: move a run of 1 to 3 stops elsewhere: the run, taken out of the order as it was
    // before these moves, goes before the k-th of the other stops.
    for (let size = 1; size <= 3; size++) {
      for (let i = 0; i + size <= n; i++) {
        const run = perm.slice(i, i + size)
        const rest = [...perm.slice(0, i), ...perm.slice(i + size)]
        const [first, lastRun] = [run[0]!, run[size - 1]!]
        const prev = i === 0 ? 0 : perm[i - 1]!
        const next = i + size < n ? perm[i + size]! : end ? last : -1
        const was = bestCost
        const removed =
          next === -1
            ? -cost[prev]![first]!
            : cost[prev]![next]! - cost[prev]![first]! - cost[lastRun]![next]!
        for (let k = 0; k <= rest.length; k++) {
          if (k === i) continue
          const x = k === 0 ? 0 : rest[k - 1]!
          const y = k < rest.length ? rest[k]! : end ? last : -1
          const added = cost[x]![first]! + (y === -1 ? 0 : cost[lastRun]![y]! - cost[x]![y]!)
          if (was + removed + added < bestCost - 1e-9) {
            const order = [...rest.slice(0, k), ...run, ...rest.slice(k)]
            if (accept(order, total(order))) improved = true
          }
        }
      }
    }
  }

  const input = Array.from({ length: n }, (_, i) => i + 1)
  const chosen = total(input) <= bestCost ? input : perm
  return chosen.map((node) => node - 1)
}
