/** The app's own key, as an app's `.env` would give it. */
export const APP_KEY = `ak_${'5f1c0e9a'.repeat(4)}`
