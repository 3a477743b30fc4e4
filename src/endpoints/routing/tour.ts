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

  let bestCost = total(perm)
  const tryMove = (candidate: number[]): boolean => {
    const c = total(candidate)
    if (c < bestCost - 1e-9) {
      perm = candidate
      bestCost = c
      return true
    }
    return false
  }
  for (let improved = true, rounds = 0; improved && rounds < 50; rounds++) {
    improved = false
    // 2-opt: reverse perm[i..j].
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        const candidate = [...perm.slice(0, i), ...perm.slice(i, j + 1).reverse(), ...perm.slice(j + 1)]
        if (tryMove(candidate)) improved = true
      }
    }
    // Or-opt: move a run of 1 to 3 stops elsewhere.
    for (let size = 1; size <= 3; size++) {
      for (let i = 0; i + size <= n; i++) {
        const run = perm.slice(i, i + size)
        const rest = [...perm.slice(0, i), ...perm.slice(i + size)]
        for (let k = 0; k <= rest.length; k++) {
          if (k === i) continue
          if (tryMove([...rest.slice(0, k), ...run, ...rest.slice(k)])) improved = true
        }
      }
    }
  }

  const input = Array.from({ length: n }, (_, i) => i + 1)
  const chosen = total(input) <= bestCost ? input : perm
  return chosen.map((node) => node - 1)
}
