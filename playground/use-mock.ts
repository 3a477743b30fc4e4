import { useEffect, useState } from 'preact/hooks'
import type { TmapsWorker } from '../src/runtimes/browser/index.ts'

/**
 * Re-renders on every change of the mock (console writes, restores from another tab) and every
 * answered request; returns a counter to key memoized reads on.
 */
export function useMockVersion(tmaps: TmapsWorker): number {
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1)
    const offChange = tmaps.onChange(bump)
    const offLog = tmaps.log.subscribe(bump)
    return () => {
      offChange()
      offLog()
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
