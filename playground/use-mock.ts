import { useEffect, useState } from 'preact/hooks'
import type { PlaygroundMock } from './server-console.ts'

/**
 * Re-renders on every change of the mock (console writes, restores from another tab), every answered request
 * and, for a server's console, every refresh (usage counts, the link's health); returns a counter to key
 * memoized reads on.
 */
export function useMockVersion(tmaps: PlaygroundMock): number {
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1)
    const offChange = tmaps.onChange(bump)
    const offLog = tmaps.log.subscribe(bump)
    const offRefresh = tmaps.server?.onRefresh(bump)
    return () => {
      offChange()
      offLog()
      offRefresh?.()
    }
  }, [tmaps])
  return version
}

/** Runs a console action and keeps its error message for the UI (never throws). */
export function useAction(): [string | null, (run: () => Promise<unknown>) => Promise<boolean>] {
  const [error, setError] = useState<string | null>(null)
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run()
      setError(null)
      return true
    } catch (e) {
      setError((e as Error).message)
      return false
    }
  }
  return [error, act]
}
