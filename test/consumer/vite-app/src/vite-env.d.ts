/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TMAPS_API_KEY: string
}
