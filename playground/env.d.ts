/// <reference types="vite/client" />

/** The recording `TMAPS_REPLAY` names (its text), or null: see vite.config.ts. */
declare module 'virtual:playground/replay' {
  const recording: string | null
  export default recording
}
